// Small, allocation-free reads and writes of untrusted keys and values.

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own property's value, never an inherited one (`constructor`, `__proto__`, `toString`). */
export function ownValue(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/**
 * Sets `record[key]` as an own, enumerable property, whatever the key: plain assignment of `__proto__` (a key
 * `JSON.parse` makes, or a schema's property name) would call the prototype setter instead.
 */
export function setOwn(record: object, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
