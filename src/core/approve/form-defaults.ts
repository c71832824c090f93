// A question's form read for a plain yes: the defaults it gives, and the required fields a yes cannot fill.
import { isRecord } from "../json.js";
import type { JsonObject, JsonValue } from "../types.js";

/** The `default` of each property of a form's schema that has one. */
export function formDefaults(schema: unknown): JsonObject {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const defaults: Record<string, JsonValue> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isRecord(property) && property.default !== undefined) defaults[name] = property.default as JsonValue;
  }
  return defaults;
}

/** The names a form's schema requires that have no `default`: what a plain yes leaves unanswered. */
export function fieldsWithoutDefaults(schema: unknown): string[] {
  if (!isRecord(schema) || !Array.isArray(schema.required)) return [];
  const defaults = formDefaults(schema);
  return schema.required.filter((name): name is string => typeof name === "string" && !Object.hasOwn(defaults, name));
}
