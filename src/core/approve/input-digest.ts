// The digest an approval is bound to: SHA-256 over the RFC 8785 (JCS) canonical JSON of the input.
import { createHash } from "node:crypto";
import type { JsonObject } from "../types.js";

/**
 * `"sha256:"` and the hex SHA-256 of `input`'s canonical JSON (RFC 8785): object keys sorted by their
 * UTF-16 code units, no white space, numbers and strings as ECMAScript's `JSON.stringify` writes them
 * (which is what RFC 8785 specifies). The input is plain JSON data (dispatch copies it), so every value
 * is a string, a finite number, a boolean, null, an array or an object.
 */
export function inputDigest(input: JsonObject): string {
  return `sha256:${createHash("sha256").update(canonicalJson(input)).digest("hex")}`;
}

/** RFC 8785 canonical JSON of plain JSON data. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}
