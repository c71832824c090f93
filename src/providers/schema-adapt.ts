// Schema adaptation per provider: OpenAI's strict mode and Gemini's OpenAPI subset, each converted once per schema.
import { isRecord } from "../core/json.js";
import type { JsonObject } from "../core/types.js";

/** The schema conversions an adapter may need. */
type SchemaVariant = "openai-strict" | "gemini";

const cache = new WeakMap<object, Map<SchemaVariant, JsonObject | undefined>>();

/**
 * The schema adapted for a provider, converted once per schema object and variant and then reused (schemas are
 * immutable: `defineTool` freezes them), so a tool's bytes never change from turn to turn. Gemini's result is
 * `undefined` for a schema without properties (Gemini wants `parameters` left out then).
 */
export function adaptSchema(schema: JsonObject, variant: "openai-strict"): JsonObject;
export function adaptSchema(schema: JsonObject, variant: SchemaVariant): JsonObject | undefined;
export function adaptSchema(schema: JsonObject, variant: SchemaVariant): JsonObject | undefined {
  let byVariant = cache.get(schema);
  if (byVariant === undefined) {
    byVariant = new Map();
    cache.set(schema, byVariant);
  }
  if (byVariant.has(variant)) return byVariant.get(variant);
  const adapted = variant === "openai-strict" ? toStrictSchema(schema) : toGeminiSchema(schema);
  byVariant.set(variant, adapted);
  return adapted;
}

// ---------------------------------------------------------------- OpenAI strict mode

const MAX_DEPTH = 64;

/**
 * OpenAI strict mode: every object schema gets `additionalProperties: false` and lists all its properties in
 * `required`; a property that was not required also accepts `null` (dispatch treats that null as absent).
 * `$schema` is dropped. The input is not changed.
 */
export function toStrictSchema(schema: JsonObject): JsonObject {
  return strictNode(schema, 0) as JsonObject;
}

function strictNode(node: unknown, depth: number): unknown {
  if (!isRecord(node) || depth > MAX_DEPTH) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    out[key] = strictChild(key, value, depth + 1);
  }
  if (!isObjectSchema(node)) return out;
  const properties = isRecord(out.properties) ? out.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const strictProperties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    strictProperties[name] = required.has(name) ? property : acceptNull(property);
  }
  out.properties = strictProperties;
  out.required = Object.keys(strictProperties);
  out.additionalProperties = false;
  return out;
}

function strictChild(key: string, value: unknown, depth: number): unknown {
  switch (key) {
    case "properties":
    case "$defs":
    case "definitions":
      return isRecord(value) ? mapValues(value, (child) => strictNode(child, depth)) : value;
    case "items":
    case "prefixItems":
    case "anyOf":
    case "oneOf":
    case "allOf":
      return Array.isArray(value) ? value.map((child) => strictNode(child, depth)) : strictNode(value, depth);
    case "not":
    case "additionalProperties":
      return strictNode(value, depth);
    default:
      return value;
  }
}

function isObjectSchema(node: Record<string, unknown>): boolean {
  const { type } = node;
  if (type === "object" || (Array.isArray(type) && type.includes("object"))) return true;
  return type === undefined && isRecord(node.properties);
}

/** The property schema widened to accept `null`, unless it already does. */
function acceptNull(property: unknown): unknown {
  if (!isRecord(property) || allowsNull(property)) return property;
  const { type, enum: values } = property;
  const withNullEnum = Array.isArray(values) ? { enum: [...values, null] } : {};
  if (typeof type === "string" && property.const === undefined) {
    return { ...property, type: [type, "null"], ...withNullEnum };
  }
  if (Array.isArray(type) && property.const === undefined) {
    return { ...property, type: [...type, "null"], ...withNullEnum };
  }
  if (Array.isArray(property.anyOf)) return { ...property, anyOf: [...property.anyOf, { type: "null" }] };
  return { anyOf: [property, { type: "null" }] };
}

function allowsNull(schema: Record<string, unknown>): boolean {
  const { type } = schema;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((option) => isRecord(option) && allowsNull(option));
  return false;
}

// ---------------------------------------------------------------- Gemini

/** The Schema fields Gemini's function declarations accept (a subset of OpenAPI 3.0's Schema object). */
const GEMINI_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

/** The `format` values Gemini accepts, per type. */
const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ["enum", "date-time"],
  integer: ["int32", "int64"],
  number: ["float", "double"],
};

/**
 * Gemini's subset of JSON Schema (OpenAPI 3.0 style): local `$ref`s are inlined (a cycle becomes a plain object),
 * type lists become one type plus `nullable` (or `anyOf`), `oneOf` becomes `anyOf`, `allOf` is merged, `const`
 * becomes a one-value `enum`, enums keep strings only (other values move to the description), exclusive bounds
 * become inclusive ones, and every other keyword (`$schema`, `additionalProperties`, `$defs`, unsupported
 * formats...) is dropped. `undefined` when the root has no properties.
 */
export function toGeminiSchema(schema: JsonObject): JsonObject | undefined {
  const converted = geminiNode(schema, { root: schema, refs: [] }, 0);
  return isRecord(converted.properties) ? (converted as JsonObject) : undefined;
}

interface GeminiContext {
  readonly root: Record<string, unknown>;
  /** The `$ref`s being inlined on the current path, to stop at a cycle. */
  readonly refs: string[];
}

function geminiNode(node: unknown, context: GeminiContext, depth: number): Record<string, unknown> {
  if (!isRecord(node) || depth > MAX_DEPTH) return {};
  if (typeof node.$ref === "string") return inlineRef(node, node.$ref, context, depth);
  let source: Record<string, unknown> = node;
  if (Array.isArray(node.allOf)) source = mergeAllOf(node, context, depth);
  const out: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(source)) {
    if (key === "oneOf" || key === "anyOf") {
      if (Array.isArray(value)) out.anyOf = value.map((child) => geminiNode(child, context, depth + 1));
    } else if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
      if (typeof value === "number") out[key === "exclusiveMinimum" ? "minimum" : "maximum"] ??= value;
    } else if (key === "const") {
      if (typeof value === "string") out.enum = [value];
      else notes.push(`Must be ${JSON.stringify(value)}.`);
    } else if (GEMINI_KEYS.has(key)) {
      out[key] = geminiKeyword(key, value, context, depth);
    }
  }
  adaptType(out);
  adaptEnum(out, notes);
  if (typeof out.format === "string" && !(GEMINI_FORMATS[String(out.type)] ?? []).includes(out.format)) {
    delete out.format;
  }
  if (isRecord(out.properties)) {
    const names = Object.keys(out.properties);
    if (names.length === 0) delete out.properties;
    const required = Array.isArray(out.required) ? out.required.filter((name) => names.includes(name)) : [];
    if (required.length > 0) out.required = required;
    else delete out.required;
  } else {
    delete out.required;
  }
  if (notes.length > 0) {
    out.description = typeof out.description === "string" ? `${out.description} ${notes.join(" ")}` : notes.join(" ");
  }
  return out;
}

function geminiKeyword(key: string, value: unknown, context: GeminiContext, depth: number): unknown {
  if (key === "properties") {
    return isRecord(value) ? mapValues(value, (child) => geminiNode(child, context, depth + 1)) : undefined;
  }
  if (key === "items") {
    if (!Array.isArray(value)) return geminiNode(value, context, depth + 1);
    const items = value.map((child) => geminiNode(child, context, depth + 1));
    return items.length === 1 ? items[0] : { anyOf: items };
  }
  return value;
}

function inlineRef(node: Record<string, unknown>, ref: string, context: GeminiContext, depth: number) {
  const target = resolveLocalRef(context.root, ref);
  const description = typeof node.description === "string" ? { description: node.description } : {};
  if (target === undefined || context.refs.includes(ref)) {
    return { type: "object", ...description };
  }
  context.refs.push(ref);
  try {
    return { ...geminiNode(target, context, depth + 1), ...description };
  } finally {
    context.refs.pop();
  }
}

function resolveLocalRef(root: Record<string, unknown>, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function mergeAllOf(node: Record<string, unknown>, context: GeminiContext, depth: number): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...node };
  delete merged.allOf;
  const properties: Record<string, unknown> = isRecord(node.properties) ? { ...node.properties } : {};
  const required: unknown[] = Array.isArray(node.required) ? [...node.required] : [];
  for (const part of node.allOf as unknown[]) {
    const converted = geminiNode(part, context, depth + 1);
    for (const [key, value] of Object.entries(converted)) {
      if (key === "properties" && isRecord(value)) Object.assign(properties, value);
      else if (key === "required" && Array.isArray(value)) required.push(...value);
      else if (!(key in merged)) merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function adaptType(out: Record<string, unknown>): void {
  const { type } = out;
  if (!Array.isArray(type)) {
    if (type === "null") {
      delete out.type;
      out.nullable = true;
    }
    return;
  }
  const types = type.filter((entry): entry is string => typeof entry === "string" && entry !== "null");
  if (types.length < type.length) out.nullable = true;
  if (types.length === 1) out.type = types[0];
  else {
    delete out.type;
    if (types.length > 1 && out.anyOf === undefined) out.anyOf = types.map((entry) => ({ type: entry }));
  }
}

function adaptEnum(out: Record<string, unknown>, notes: string[]): void {
  if (!Array.isArray(out.enum)) return;
  const values = out.enum;
  if (values.includes(null)) out.nullable = true;
  const others = values.filter((value) => value !== null);
  if (others.every((value) => typeof value === "string")) {
    out.enum = others;
    out.type ??= "string";
    if (others.length === 0) delete out.enum;
    return;
  }
  delete out.enum;
  notes.push(`Allowed values: ${others.map((value) => JSON.stringify(value)).join(", ")}.`);
}

function mapValues(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = map(value);
  return out;
}
