// Signs what a paused run hands out, so that only a holder of the secret can have it resumed.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { JsonValue } from "../types.js";
import { canonicalJson } from "./input-digest.js";

/** Signs and checks JSON data with HMAC-SHA256 over its RFC 8785 canonical JSON. */
export interface StateSeal {
  /** `"hmac-sha256:"` and the hex MAC of `body`'s canonical JSON. */
  sign(body: JsonValue): string;
  /** Whether `signature` is `sign(body)`; compared in constant time. Never throws. */
  verify(body: JsonValue, signature: unknown): boolean;
}

const PREFIX = "hmac-sha256:";

/**
 * The fewest bytes (UTF-8) a secret may have. Anyone who sees one signed state can try guesses offline,
 * as fast as they can compute HMACs, so a short or memorable secret would let them forge approvals.
 */
export const MIN_SECRET_BYTES = 32;

/**
 * A seal under `secret`, or under 32 random bytes when none is given. Throws a `TypeError` for a secret that is not
 * a string of at least `MIN_SECRET_BYTES` bytes; its message names the minimum, never the secret.
 */
export function createStateSeal(secret?: string): StateSeal {
  if (secret !== undefined && !(typeof secret === "string" && Buffer.byteLength(secret, "utf8") >= MIN_SECRET_BYTES)) {
    throw new TypeError(
      `approvals.secret must be a string of at least ${MIN_SECRET_BYTES} bytes (UTF-8): a shorter one can be guessed offline from one signed state. Use a long random value, such as 32 random bytes in hex.`,
    );
  }
  const key = secret === undefined ? randomBytes(32) : Buffer.from(secret, "utf8");
  const mac = (body: JsonValue) => createHmac("sha256", key).update(canonicalJson(body)).digest();
  return {
    sign: (body) => PREFIX + mac(body).toString("hex"),
    verify(body, signature) {
      if (typeof signature !== "string" || !signature.startsWith(PREFIX)) return false;
      const given = Buffer.from(signature.slice(PREFIX.length), "hex");
      try {
        const expected = mac(body);
        return given.length === expected.length && timingSafeEqual(given, expected);
      } catch {
        return false; // a body that is not JSON data
      }
    },
  };
}
