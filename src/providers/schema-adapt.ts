// Schema adaptation per provider: OpenAI's strict mode and Gemini's OpenAPI subset, each converted once per schema.
import { isRecord, setOwn } from "../core/json.js";
import type { JsonObject } from "../core/types.js";
import { type StrictSchemaResult, toOpenAIStrictSchema } from "./openai-strict-schema.js";
import { resolveLocalRef } from "./resolve-local-ref.js";

/** The schema conversions an adapter may need. */
type SchemaVariant = "openai" | "gemini";

const cache = new WeakMap<object, Map<SchemaVariant, JsonObject | undefined>>();

const MAX_DEPTH = 64;

/**
 * The schema adapted for a provider, converted once per schema object and variant and then reused (schemas are
 * immutable: `defineTool` freezes them), so a tool's bytes never change from turn to turn. Gemini's result is
 * `undefined` for a schema without properties (Gemini wants `parameters` left out then).
 */
export function adaptSchema(schema: JsonObject, variant: "openai"): JsonObject;
export function adaptSchema(schema: JsonObject, variant: SchemaVariant): JsonObject | undefined;
export function adaptSchema(schema: JsonObject, variant: SchemaVariant): JsonObject | undefined {
  let byVariant = cache.get(schema);
  if (byVariant === undefined) {
    byVariant = new Map();
    cache.set(schema, byVariant);
  }
  if (byVariant.has(variant)) return byVariant.get(variant);
  const adapted = variant === "openai" ? withArrayItems(schema) : toGeminiSchema(schema);
  byVariant.set(variant, adapted);
  return adapted;
}

// ---------------------------------------------------------------- OpenAI without strict mode

/**
 * The schema as OpenAI takes it without strict mode: the same, except that an array schema without `items` gets
 * `items: {}` (OpenAI refuses it: "array schema missing items"). The very schema given when nothing needed that.
 */
export function withArrayItems(schema: JsonObject): JsonObject {
  return arrayItemsNode(schema, 0) as JsonObject;
}

function arrayItemsNode(node: unknown, depth: number): unknown {
  if (!isRecord(node) || depth > MAX_DEPTH) return node;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(node)) {
    let changed: unknown = value;
    if (key === "properties" || key === "$defs" || key === "definitions") {
      if (isRecord(value)) changed = mapIfChanged(value, (child) => arrayItemsNode(child, depth + 1));
    } else if (
      Array.isArray(value) &&
      (key === "anyOf" || key === "oneOf" || key === "allOf" || key === "items" || key === "prefixItems")
    ) {
      const children = value.map((child) => arrayItemsNode(child, depth + 1));
      if (children.some((child, index) => child !== value[index])) changed = children;
    } else if (key === "items" || key === "additionalProperties" || key === "not") {
      changed = arrayItemsNode(value, depth + 1);
    }
    if (changed !== value) {
      out ??= { ...node };
      out[key] = changed;
    }
  }
  const { type } = node;
  if ((type === "array" || (Array.isArray(type) && type.includes("array"))) && node.items === undefined) {
    out ??= { ...node };
    out.items = {};
  }
  return out ?? node;
}

/** The record with `map` applied to each value, or the record itself when no value changed. */
function mapIfChanged(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  const out = mapValues(record, map);
  return Object.keys(out).some((key) => out[key] !== record[key]) ? out : record;
}

// ---------------------------------------------------------------- OpenAI strict mode

const strictResults = new WeakMap<object, StrictSchemaResult>();

/** `toOpenAIStrictSchema`, converted once per schema object and then reused (schemas are immutable). */
export function strictSchemaOf(schema: JsonObject): StrictSchemaResult {
  let result = strictResults.get(schema);
  if (result === undefined) {
    result = toOpenAIStrictSchema(schema);
    strictResults.set(schema, result);
  }
  return result;
}

/**
 * The `parameters` of an OpenAI function tool (Chat or Responses), and whether the tool goes with `strict: true`:
 * with `strict`, the strict-mode schema when the schema can be made strict; otherwise, or when it cannot, the schema
 * as OpenAI takes it without strict mode.
 */
export function openAIParameters(
  schema: JsonObject,
  strict: boolean,
): { readonly parameters: JsonObject; readonly strict: boolean } {
  const converted = strict ? strictSchemaOf(schema) : undefined;
  return converted?.strict === true
    ? { parameters: converted.schema, strict: true }
    : { parameters: adaptSchema(schema, "openai"), strict: false };
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
  const target = resolveRef(context.root, ref);
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

/** The node a local reference names; `#` is the whole schema. */
function resolveRef(root: Record<string, unknown>, ref: string): unknown {
  return ref === "#" ? root : resolveLocalRef(root, ref);
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
  for (const [key, value] of Object.entries(record)) setOwn(out, key, map(value));
  return out;
}
