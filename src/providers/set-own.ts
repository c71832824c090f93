// Setting a key read from a schema: a property or a definition may be called `__proto__`, which plain assignment would
// pass to the prototype setter (the key lost, or the object's prototype changed).

/** Sets `record[name]` as an own, enumerable property, whatever the name. */
export function setOwn(record: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}
