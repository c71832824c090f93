// OpenAI strict mode: a tool's input schema converted to the subset strict function calling accepts, or the reasons
// it cannot be.
import { isRecord, setOwn } from "../core/json.js";
import type { JsonObject } from "../core/types.js";
import { resolveLocalRef } from "./resolve-local-ref.js";

/**
 * A schema converted for OpenAI's strict mode. `strict: true`: `schema` keeps to every published rule of strict
 * function schemas. `strict: false`: the schema cannot be made strict without changing what it accepts; `reasons`
 * says why, one line each, and `schema` is the best effort (not sent: the tool goes without `strict`).
 */
export type StrictSchemaResult =
  | { readonly strict: true; readonly schema: JsonObject }
  | { readonly strict: false; readonly schema: JsonObject; readonly reasons: readonly string[] };

/** The string formats strict mode accepts. */
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
/** Keywords strict mode accepts per type, beside `type`, `description`, `title`, `enum` and `anyOf`. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ["pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "minItems", "maxItems"],
  object: ["properties", "required", "additionalProperties"],
  boolean: [],
  null: [],
};
/** Keywords whose meaning strict mode cannot carry, so a schema using them is sent without `strict`. */
const UNCONVERTIBLE = [
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "patternProperties",
  "contains",
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
];
/** Published limits: object nesting, properties in all, enum values in all. */
const MAX_OBJECT_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;
/** How deep the conversion follows a schema before it gives up (a guard against absurd input). */
const MAX_DEPTH = 64;

interface Context {
  readonly root: Record<string, unknown>;
  /** The `$ref`s being inlined on the current path, to stop at a cycle. */
  readonly inlining: string[];
  /** The names of the definitions `$ref`s point to. */
  readonly used: Set<string>;
  readonly reasons: string[];
  properties: number;
  enumValues: number;
}

/**
 * The schema converted for OpenAI's strict mode: `oneOf` becomes `anyOf`, `allOf` is merged, `const` becomes a
 * one-value `enum`, a type list becomes an `anyOf` per type, every object lists all its properties in `required`
 * and gets `additionalProperties: false`, and a property that was not required also accepts `null` (dispatch treats
 * that null as absent). Keywords strict mode refuses but whose sense fits in words (`default`, `minLength`, an
 * unsupported `format`, `uniqueItems`...) move into the description; `$schema`, `$id`, `examples` and other
 * annotations are dropped. Local `$ref`s into `$defs` or `definitions` stay (as `#/$defs/...`), others are
 * inlined. Not strict: a node that accepts any value (no type), an object that takes any keys (no properties, or
 * `additionalProperties` a schema), an array without `items`, tuples, `not`, `if`/`then`/`else`, dependencies,
 * `patternProperties`, a `$ref` that cannot be resolved, and schemas over the published size limits. The input is
 * not changed.
 */
export function toOpenAIStrictSchema(schema: JsonObject): StrictSchemaResult {
  const context: Context = { root: schema, inlining: [], used: new Set(), reasons: [], properties: 0, enumValues: 0 };
  const out = convertNode(schema, context, "#", 0, 0);
  if (out.type !== "object") context.reasons.push("#: the root is not an object schema");
  // Only the definitions the schema uses go (some servers send the same $defs with every tool).
  const definitions = definitionsOf(schema);
  const $defs: Record<string, unknown> = {};
  // A Set's loop also visits the names added while it runs: the definitions that these definitions use.
  for (const name of context.used) {
    setOwn($defs, name, convertNode(definitions[name], context, `#/$defs/${name}`, 0, 1));
  }
  if (Object.keys($defs).length > 0) out.$defs = $defs;
  if (context.properties > MAX_PROPERTIES) context.reasons.push(`#: more than ${MAX_PROPERTIES} properties in all`);
  if (context.enumValues > MAX_ENUM_VALUES) context.reasons.push(`#: more than ${MAX_ENUM_VALUES} enum values in all`);
  const reasons = [...new Set(context.reasons)];
  const converted = out as JsonObject;
  return reasons.length === 0 ? { strict: true, schema: converted } : { strict: false, schema: converted, reasons };
}

function convertNode(
  node: unknown,
  context: Context,
  path: string,
  objectDepth: number,
  depth: number,
): Record<string, unknown> {
  if (depth > MAX_DEPTH) {
    context.reasons.push(`${path}: nested too deep`);
    return {};
  }
  if (!isRecord(node)) {
    context.reasons.push(`${path}: ${node === false ? "accepts no value" : "accepts any value (no type)"}`);
    return {};
  }
  if (typeof node.$ref === "string") return convertRef(node, node.$ref, context, path, objectDepth, depth);
  const source = Array.isArray(node.allOf) ? mergeAllOf(node, context, path) : node;
  for (const key of UNCONVERTIBLE) {
    if (source[key] !== undefined) context.reasons.push(`${path}: uses ${key}, which strict mode cannot express`);
  }
  const notes: string[] = [];
  const out: Record<string, unknown> = {};
  if (typeof source.title === "string") out.title = source.title;
  if (typeof source.description === "string") out.description = source.description;
  const alternatives = [
    ...(Array.isArray(source.anyOf) ? source.anyOf : []),
    ...(Array.isArray(source.oneOf) ? source.oneOf : []),
  ];
  const values = Array.isArray(source.enum) ? source.enum : source.const !== undefined ? [source.const] : undefined;
  const types = typesOf(source, values);
  if (alternatives.length > 0) {
    if (types.length > 0) context.reasons.push(`${path}: both a type and anyOf/oneOf`);
    out.anyOf = alternatives.map((child, index) =>
      convertNode(child, context, `${path}/anyOf/${index}`, objectDepth, depth + 1),
    );
  } else if (types.length === 0) {
    context.reasons.push(`${path}: accepts any value (no type)`);
  } else if (types.filter((type) => type !== "null").length <= 1) {
    Object.assign(out, typedKeywords(source, types, context, path, objectDepth, depth, notes));
    if (values !== undefined) out.enum = values;
  } else {
    // Several types: one branch each, with the keywords of its type.
    out.anyOf = types.map((type) => {
      const branch = typedKeywords(source, [type], context, path, objectDepth, depth, notes);
      const own = values?.filter(
        (value) => jsonTypeOf(value) === type || (type === "number" && jsonTypeOf(value) === "integer"),
      );
      return own === undefined || own.length === 0 ? branch : { ...branch, enum: own };
    });
  }
  if (values !== undefined) context.enumValues += values.length;
  addNotes(source, notes);
  if (notes.length > 0) {
    const text = [...new Set(notes)].join(" ");
    out.description = typeof out.description === "string" ? `${out.description} ${text}` : text;
  }
  return out;
}

/** The node's types, from `type` or, without one, what its other keywords imply. */
function typesOf(node: Record<string, unknown>, values: unknown[] | undefined): string[] {
  const { type } = node;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return [...new Set(type.filter((entry): entry is string => typeof entry === "string"))];
  if (isRecord(node.properties) || isRecord(node.additionalProperties) || Array.isArray(node.required))
    return ["object"];
  if (node.items !== undefined) return ["array"];
  if (values !== undefined && values.length > 0) return [...new Set(values.map(jsonTypeOf))];
  return [];
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The `type` (one type, or one type and `null`) and the keywords strict mode takes for those types. */
function typedKeywords(
  source: Record<string, unknown>,
  types: string[],
  context: Context,
  path: string,
  objectDepth: number,
  depth: number,
  notes: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { type: types.length === 1 ? types[0] : types };
  for (const type of types) {
    const keywords = TYPE_KEYWORDS[type];
    if (keywords === undefined) {
      context.reasons.push(`${path}: unknown type ${JSON.stringify(type)}`);
      continue;
    }
    for (const key of keywords) if (source[key] !== undefined) out[key] = source[key];
  }
  if (typeof out.format === "string" && !FORMATS.has(out.format)) {
    notes.push(`Format: ${out.format}.`);
    delete out.format;
  }
  adaptExclusiveBounds(source, out);
  if (types.includes("array")) convertArray(source, out, context, path, objectDepth, depth);
  if (types.includes("object")) convertObject(source, out, context, path, objectDepth, depth);
  return out;
}

/** Draft 4's boolean `exclusiveMinimum`/`exclusiveMaximum` become today's numeric ones. */
function adaptExclusiveBounds(source: Record<string, unknown>, out: Record<string, unknown>): void {
  for (const [bound, exclusive] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    if (typeof out[exclusive] === "number") continue;
    if (out[exclusive] === true && typeof source[bound] === "number") {
      out[exclusive] = source[bound];
      delete out[bound];
    } else {
      delete out[exclusive];
    }
  }
}

function convertArray(
  source: Record<string, unknown>,
  out: Record<string, unknown>,
  context: Context,
  path: string,
  objectDepth: number,
  depth: number,
): void {
  if (Array.isArray(source.items)) {
    context.reasons.push(`${path}: a tuple (items as a list), which strict mode cannot express`);
    delete out.items;
  } else if (source.items === undefined) {
    context.reasons.push(`${path}: an array without items (accepts any items)`);
  } else {
    out.items = convertNode(source.items, context, `${path}/items`, objectDepth, depth + 1);
  }
}

function convertObject(
  source: Record<string, unknown>,
  out: Record<string, unknown>,
  context: Context,
  path: string,
  objectDepth: number,
  depth: number,
): void {
  if (objectDepth + 1 > MAX_OBJECT_DEPTH)
    context.reasons.push(`${path}: objects nested more than ${MAX_OBJECT_DEPTH} deep`);
  const properties = isRecord(source.properties) ? source.properties : {};
  const names = Object.keys(properties);
  const extra = source.additionalProperties;
  if (isRecord(extra) && Object.keys(extra).length > 0) {
    context.reasons.push(`${path}: takes keys of its choosing (additionalProperties is a schema)`);
  } else if (names.length === 0 && path !== "#" && extra !== false) {
    context.reasons.push(`${path}: an object without properties (takes any keys)`);
  }
  const required = new Set(Array.isArray(source.required) ? source.required : []);
  const strictProperties: Record<string, unknown> = {};
  for (const name of names) {
    const converted = convertNode(properties[name], context, `${path}/properties/${name}`, objectDepth + 1, depth + 1);
    setOwn(strictProperties, name, required.has(name) ? converted : acceptNull(converted));
  }
  context.properties += names.length;
  out.properties = strictProperties;
  out.required = names;
  out.additionalProperties = false;
}

function convertRef(
  node: Record<string, unknown>,
  ref: string,
  context: Context,
  path: string,
  objectDepth: number,
  depth: number,
): Record<string, unknown> {
  const description = typeof node.description === "string" ? { description: node.description } : {};
  const definition = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (ref === "#") return { $ref: "#", ...description };
  if (definition !== null) {
    const name = decodeURIComponent(definition[1] as string);
    if (Object.hasOwn(definitionsOf(context.root), name)) {
      context.used.add(name);
      return { $ref: `#/$defs/${definition[1]}`, ...description };
    }
  }
  const target = resolveLocalRef(context.root, ref);
  if (target === undefined) {
    context.reasons.push(`${path}: a $ref that cannot be resolved (${ref})`);
    return { ...description };
  }
  if (context.inlining.includes(ref)) {
    context.reasons.push(`${path}: a recursive $ref outside $defs (${ref})`);
    return { ...description };
  }
  context.inlining.push(ref);
  try {
    return { ...convertNode(target, context, path, objectDepth, depth + 1), ...description };
  } finally {
    context.inlining.pop();
  }
}

/** `definitions` and `$defs` together (`$defs` wins). */
function definitionsOf(root: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(isRecord(root.definitions) ? root.definitions : {}),
    ...(isRecord(root.$defs) ? root.$defs : {}),
  };
}

/** `allOf`'s parts merged into the node: properties and required joined, other keywords kept when they agree. */
function mergeAllOf(node: Record<string, unknown>, context: Context, path: string): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...node };
  delete merged.allOf;
  const properties: Record<string, unknown> = isRecord(node.properties) ? { ...node.properties } : {};
  const required: unknown[] = Array.isArray(node.required) ? [...node.required] : [];
  for (const raw of node.allOf as unknown[]) {
    const part = isRecord(raw) && typeof raw.$ref === "string" ? resolveLocalRef(context.root, raw.$ref) : raw;
    if (!isRecord(part) || Array.isArray(part.allOf)) {
      context.reasons.push(`${path}: an allOf part that cannot be merged`);
      continue;
    }
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties" && isRecord(value)) Object.assign(properties, value);
      else if (key === "required" && Array.isArray(value)) required.push(...value);
      else if (key === "description" || key === "title") merged[key] ??= value;
      else if (!(key in merged)) merged[key] = value;
      else if (JSON.stringify(merged[key]) !== JSON.stringify(value)) {
        context.reasons.push(`${path}: allOf parts disagree on ${key}`);
      }
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

/** The sense of keywords strict mode refuses, in words for the description. */
function addNotes(source: Record<string, unknown>, notes: string[]): void {
  const say = (key: string, words: (value: unknown) => string) => {
    if (source[key] !== undefined) notes.push(words(source[key]));
  };
  say("default", (value) => `Default: ${JSON.stringify(value)}.`);
  say("minLength", (value) => `Minimum length: ${value}.`);
  say("maxLength", (value) => `Maximum length: ${value}.`);
  say("minProperties", (value) => `Minimum properties: ${value}.`);
  say("maxProperties", (value) => `Maximum properties: ${value}.`);
  if (source.uniqueItems === true) notes.push("Items must be unique.");
  if (source.deprecated === true) notes.push("Deprecated.");
}

/** The property schema widened to accept `null`, unless it already does. */
function acceptNull(property: Record<string, unknown>): Record<string, unknown> {
  if (allowsNull(property)) return property;
  const { type, enum: values } = property;
  const withNullEnum = Array.isArray(values) ? { enum: [...values, null] } : {};
  if (typeof type === "string") return { ...property, type: [type, "null"], ...withNullEnum };
  if (Array.isArray(type)) return { ...property, type: [...type, "null"], ...withNullEnum };
  if (Array.isArray(property.anyOf)) return { ...property, anyOf: [...property.anyOf, { type: "null" }] };
  const { description, ...rest } = property;
  const outer = typeof description === "string" ? { description } : {};
  return { anyOf: [rest, { type: "null" }], ...outer };
}

function allowsNull(schema: Record<string, unknown>): boolean {
  const { type } = schema;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((option) => isRecord(option) && allowsNull(option));
  return false;
}
