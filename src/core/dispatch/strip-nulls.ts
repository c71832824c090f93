// Strict-mode providers send `null` for optional properties; treat such a null as absent before validation.
import { isRecord } from "../json.js";
import type { JsonObject } from "../types.js";

/** Per object schema: which properties may have their null dropped, and the plans of nested objects. */
interface NullPlan {
  readonly droppable: ReadonlySet<string>;
  readonly nested: ReadonlyMap<string, NullPlan>;
}

const plans = new WeakMap<object, NullPlan | null>();

/**
 * Returns the input without the `null` values of properties that the schema neither requires nor
 * allows to be null (at any depth of nested object properties). Returns the input itself, not a
 * copy, when there is nothing to drop.
 */
export function dropNullOptionals(schema: JsonObject, input: JsonObject): JsonObject {
  const plan = planOf(schema);
  return plan === null ? input : apply(plan, input);
}

/** `dropNullOptionals` for one schema, its plan looked up once: for a caller that keeps it per tool. */
export function nullDropperFor(schema: JsonObject): (input: JsonObject) => JsonObject {
  const plan = planOf(schema);
  return plan === null ? unchanged : (input) => apply(plan, input);
}

const unchanged = (input: JsonObject): JsonObject => input;

function planOf(schema: JsonObject): NullPlan | null {
  let plan = plans.get(schema);
  if (plan === undefined) {
    plan = planFor(schema, 0);
    plans.set(schema, plan);
  }
  return plan;
}

function apply(plan: NullPlan, input: JsonObject): JsonObject {
  let out: Record<string, unknown> | undefined;
  for (const key in input) {
    if (!Object.hasOwn(input, key)) continue;
    const value = input[key];
    if (value === null && plan.droppable.has(key)) {
      out ??= { ...input };
      delete out[key];
      continue;
    }
    const nested = plan.nested.get(key);
    if (nested !== undefined && isRecord(value)) {
      const stripped = apply(nested, value as JsonObject);
      if (stripped !== value) {
        out ??= { ...input };
        out[key] = stripped;
      }
    }
  }
  return (out ?? input) as JsonObject;
}

function planFor(schema: unknown, depth: number): NullPlan | null {
  if (!isRecord(schema) || depth > 32 || !isRecord(schema.properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const droppable = new Set<string>();
  const nested = new Map<string, NullPlan>();
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!required.has(key) && !allowsNull(property)) droppable.add(key);
    const child = planFor(property, depth + 1);
    if (child !== null) nested.set(key, child);
  }
  return droppable.size === 0 && nested.size === 0 ? null : { droppable, nested };
}

function allowsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return true; // `true` or a malformed schema: do not touch the value
  const { type } = schema;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema.nullable === true || schema.const === null) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.some(allowsNull);
  }
  return type === undefined && schema.const === undefined && schema.$ref === undefined && schema.not === undefined;
}
