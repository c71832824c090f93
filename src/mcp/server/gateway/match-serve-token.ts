// Finds which configured token a credential is, in time that does not depend on where the two differ.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ServeTokenConfig } from "./gateway-auth-options.js";

/**
 * A matcher over `tokens`: the entry whose token equals `credential`, or `undefined`. Both sides are
 * HMAC-SHA256'd under a random key made here and every entry is compared with `timingSafeEqual`, so the
 * time taken tells neither a token's length nor how much of it a guess got right.
 */
export function createServeTokenMatcher(
  tokens: readonly ServeTokenConfig[],
): (credential: string) => ServeTokenConfig | undefined {
  const key = randomBytes(32);
  const digest = (value: string) => createHmac("sha256", key).update(value, "utf8").digest();
  const entries = tokens.map((token) => ({ token, digest: digest(token.token) }));
  return (credential) => {
    const given = digest(credential);
    let found: ServeTokenConfig | undefined;
    for (const entry of entries) {
      // No early exit: every entry is compared whether or not one matched already.
      if (timingSafeEqual(given, entry.digest) && found === undefined) found = entry.token;
    }
    return found;
  };
}
