// Small, allocation-free checks on untrusted values.
import type { JsonObject } from "./types.js";

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain object, typed as a JSON object. Values are not checked deeply. */
export function isJsonObject(value: unknown): value is JsonObject {
  return isRecord(value);
}

/** An own property's value, never an inherited one (`constructor`, `__proto__`, `toString`). */
export function ownValue(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}
