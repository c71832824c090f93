// A JSON value as Cedar can hold it: nulls dropped, numbers that are not safe integers as strings, depth capped.
import type { JsonValue } from "../core/types/json.js";

/** A value of Cedar's JSON form: a Long, a String, a Boolean, a Set (an array) or a Record. */
export type CedarValue = boolean | number | string | readonly CedarValue[] | { readonly [key: string]: CedarValue };

/**
 * The deepest nesting of arrays and objects a value may have. Cedar's own parser stops near 128 levels for the whole
 * request (the context and the entities around the input count too); this leaves room for them.
 */
export const MAX_CEDAR_DEPTH = 64;

/** Keys that Cedar's JSON form reads as an entity reference or an extension value rather than a record. */
const RESERVED_KEYS = new Set(["__entity", "__extn", "__expr"]);

/** A converted value, or why the value cannot be given to Cedar (naming where, never what). */
export type CedarConversion =
  | { readonly kind: "value"; readonly value: CedarValue }
  | { readonly kind: "unrepresentable"; readonly reason: string };

/**
 * Converts `value` (named `path` in reasons, e.g. `context.input`) to Cedar's JSON form: a `null` is dropped (from a
 * record its key goes, so `has` is false; from an array its element goes); a number that is not a safe integer
 * becomes its JavaScript text (`1.5` is `"1.5"`); an array becomes a Set. Unrepresentable: nesting deeper than
 * `MAX_CEDAR_DEPTH`, or an object key Cedar reserves (`__entity`, `__extn`, `__expr`).
 */
export function toCedarValue(value: JsonValue, path: string): CedarConversion {
  try {
    return { kind: "value", value: convert(value, path, 0) ?? "" };
  } catch (error) {
    if (error instanceof Unrepresentable) return { kind: "unrepresentable", reason: error.message };
    throw error;
  }
}

/** Thrown inside the walk only, to leave it at once; `toCedarValue` turns it into a reason. */
class Unrepresentable extends Error {}

function convert(value: JsonValue | undefined, path: string, depth: number): CedarValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : String(value);
  if (depth >= MAX_CEDAR_DEPTH) {
    throw new Unrepresentable(`${path} is nested deeper than ${MAX_CEDAR_DEPTH} levels, more than Cedar can hold`);
  }
  if (Array.isArray(value)) {
    const items: CedarValue[] = [];
    for (const [index, item] of (value as readonly JsonValue[]).entries()) {
      const converted = convert(item, `${path}[${index}]`, depth + 1);
      if (converted !== undefined) items.push(converted);
    }
    return items;
  }
  const record: Record<string, CedarValue> = {};
  for (const [key, item] of Object.entries(value as { readonly [key: string]: JsonValue })) {
    if (RESERVED_KEYS.has(key)) {
      throw new Unrepresentable(`${path} has the key ${key}, which Cedar reads as something other than a record`);
    }
    const converted = convert(item, `${path}${describeKey(key)}`, depth + 1);
    if (converted !== undefined) record[key] = converted;
  }
  return record;
}

/** A key as a path step: `.name` when it is a plain name, else quoted and cut short (a key is the model's text). */
function describeKey(key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(key)) return `.${key}`;
  const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return `[${JSON.stringify(shown)}]`;
}
