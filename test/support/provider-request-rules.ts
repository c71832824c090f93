// The providers' published rules for tool definitions, as checkers: each gives what a provider would refuse, one line each.
import { isRecord } from "../../src/core/json.js";

type Node = Record<string, unknown>;

// ---------------------------------------------------------------- OpenAI
// Function names: "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64".
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Structured Outputs, supported schemas: types, per-type keywords, string formats, limits.
const OPENAI_TYPES = new Set(["string", "number", "boolean", "integer", "object", "array", "null"]);
const OPENAI_COMMON = new Set(["type", "description", "title", "enum", "anyOf", "$ref"]);
const OPENAI_TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ["pattern", "format"],
  number: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  integer: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  array: ["items", "minItems", "maxItems"],
  object: ["properties", "required", "additionalProperties"],
};
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** What OpenAI refuses in a strict function's `parameters` (Structured Outputs' supported-schema rules). */
export function openAIStrictViolations(schema: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(schema)) return ["#: not a schema object"];
  if (schema.type !== "object") problems.push("#: the root must be an object");
  if (schema.anyOf !== undefined) problems.push("#: the root must not be anyOf");
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const counts = { properties: 0, enumValues: 0, stringLength: 0 };
  const visit = (node: unknown, path: string, objectDepth: number) => {
    if (!isRecord(node)) {
      problems.push(`${path}: not a schema object`);
      return;
    }
    if (typeof node.$ref === "string") {
      const match = /^#\/\$defs\/(.+)$/.exec(node.$ref);
      if (node.$ref !== "#" && (match === null || !Object.hasOwn(defs, decodeURIComponent(match[1] as string)))) {
        problems.push(`${path}: $ref ${node.$ref} does not resolve into $defs`);
      }
      for (const key of Object.keys(node)) {
        if (key !== "$ref" && key !== "description") problems.push(`${path}: ${key} beside $ref`);
      }
      return;
    }
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.length === 0 && !Array.isArray(node.anyOf)) problems.push(`${path}: no type`);
    const allowed = new Set(OPENAI_COMMON);
    for (const type of types) {
      if (!OPENAI_TYPES.has(type)) problems.push(`${path}: type ${JSON.stringify(type)} is not supported`);
      for (const key of OPENAI_TYPE_KEYWORDS[type] ?? []) allowed.add(key);
    }
    if (path === "#") allowed.add("$defs");
    for (const key of Object.keys(node)) if (!allowed.has(key)) problems.push(`${path}: ${key} is not permitted`);
    if (node.format !== undefined && !OPENAI_FORMATS.has(node.format as string)) {
      problems.push(`${path}: format ${JSON.stringify(node.format)} is not supported`);
    }
    if (Array.isArray(node.enum)) {
      const length = node.enum.reduce((sum: number, value) => sum + (typeof value === "string" ? value.length : 0), 0);
      counts.enumValues += node.enum.length;
      counts.stringLength += length;
      if (node.enum.length > 250 && length > 15_000) problems.push(`${path}: a long enum over 15,000 characters`);
    }
    if (Array.isArray(node.anyOf)) {
      for (const [index, child] of node.anyOf.entries()) visit(child, `${path}/anyOf/${index}`, objectDepth);
    }
    if (types.includes("object")) {
      if (objectDepth + 1 > 10) problems.push(`${path}: more than 10 levels of nesting`);
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const properties = isRecord(node.properties) ? node.properties : undefined;
      if (properties === undefined) problems.push(`${path}: an object without properties`);
      const names = Object.keys(properties ?? {});
      const required = Array.isArray(node.required) ? node.required : [];
      if (names.length !== required.length || names.some((name) => !required.includes(name))) {
        problems.push(`${path}: every property must be required`);
      }
      counts.properties += names.length;
      for (const name of names) {
        counts.stringLength += name.length;
        visit(properties?.[name], `${path}/properties/${name}`, objectDepth + 1);
      }
    }
    if (types.includes("array")) {
      if (node.items === undefined || Array.isArray(node.items)) problems.push(`${path}: items must be one schema`);
      else visit(node.items, `${path}/items`, objectDepth);
    }
  };
  visit(schema, "#", 0);
  for (const [name, definition] of Object.entries(defs)) {
    counts.stringLength += name.length;
    visit(definition, `#/$defs/${name}`, 0);
  }
  if (counts.properties > 5000) problems.push("#: more than 5,000 properties");
  if (counts.enumValues > 1000) problems.push("#: more than 1,000 enum values");
  if (counts.stringLength > 120_000) problems.push("#: names and enum values over 120,000 characters");
  return problems;
}

/**
 * What OpenAI refuses in a function tool (Chat's `function`, or a Responses function tool): its name, its
 * `parameters` an object schema, an array schema without `items` (refused even without strict), and with
 * `strict: true` the strict rules.
 */
export function openAIFunctionViolations(tool: { name: unknown; parameters?: unknown; strict?: unknown }): string[] {
  const name = String(tool.name);
  const problems = OPENAI_NAME.test(name) ? [] : [`${name}: the name does not match ${OPENAI_NAME}`];
  if (!isRecord(tool.parameters) || tool.parameters.type !== "object") {
    problems.push(`${name}: parameters must be an object schema`);
  }
  for (const [path, node] of schemaNodes(tool.parameters)) {
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.includes("array") && node.items === undefined)
      problems.push(`${name} ${path}: array schema missing items`);
  }
  if (tool.strict === true) problems.push(...openAIStrictViolations(tool.parameters).map((line) => `${name} ${line}`));
  return problems;
}

// ---------------------------------------------------------------- Anthropic
// Tool names: ^[a-zA-Z0-9_-]{1,128}$; input_schema: a JSON Schema of type object whose property keys match
// ^[a-zA-Z0-9_.-]{1,64}$ (the API's own 400 messages).
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const ANTHROPIC_PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

/** What Anthropic refuses in a tool definition. */
export function anthropicToolViolations(tool: { name: unknown; input_schema?: unknown }): string[] {
  const name = String(tool.name);
  const problems = ANTHROPIC_NAME.test(name) ? [] : [`${name}: the name does not match ${ANTHROPIC_NAME}`];
  if (!isRecord(tool.input_schema) || tool.input_schema.type !== "object") {
    problems.push(`${name}: input_schema must be of type object`);
  }
  for (const [path, node] of schemaNodes(tool.input_schema)) {
    if (!isRecord(node.properties)) continue;
    for (const key of Object.keys(node.properties)) {
      if (!ANTHROPIC_PROPERTY_KEY.test(key)) problems.push(`${name} ${path}: property key ${JSON.stringify(key)}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------- Gemini
// FunctionDeclaration.name: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain
// underscores, dots, colons and dashes, with a maximum length of 64." parameters: the Schema object's fields.
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const GEMINI_FIELDS = new Set([
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
const GEMINI_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

/** What Gemini refuses in a function declaration. */
export function geminiDeclarationViolations(declaration: { name: unknown; parameters?: unknown }): string[] {
  const name = String(declaration.name);
  const problems = GEMINI_NAME.test(name) ? [] : [`${name}: the name does not match ${GEMINI_NAME}`];
  if (declaration.parameters === undefined) return problems;
  if (!isRecord(declaration.parameters) || declaration.parameters.type !== "object") {
    problems.push(`${name}: parameters must be of type object`);
  }
  for (const [path, node] of schemaNodes(declaration.parameters)) {
    for (const key of Object.keys(node)) if (!GEMINI_FIELDS.has(key)) problems.push(`${name} ${path}: ${key}`);
    if (node.type !== undefined && !GEMINI_TYPES.has(node.type as string)) {
      problems.push(`${name} ${path}: type ${JSON.stringify(node.type)}`);
    }
    if (Array.isArray(node.enum) && !node.enum.every((value) => typeof value === "string")) {
      problems.push(`${name} ${path}: enum values must be strings`);
    }
    if (Array.isArray(node.required)) {
      for (const key of node.required) {
        if (!isRecord(node.properties) || !Object.hasOwn(node.properties, key as string)) {
          problems.push(`${name} ${path}: required ${JSON.stringify(key)} is not a property`);
        }
      }
    }
  }
  return problems;
}

/** Every schema node with its path: properties, items, anyOf/oneOf/allOf, additionalProperties and $defs children. */
export function* schemaNodes(schema: unknown, path = "#"): Generator<[string, Node]> {
  if (!isRecord(schema)) return;
  yield [path, schema];
  for (const key of ["properties", "$defs", "definitions"]) {
    const children = schema[key];
    if (isRecord(children)) {
      for (const [name, child] of Object.entries(children)) yield* schemaNodes(child, `${path}/${key}/${name}`);
    }
  }
  for (const key of ["items", "anyOf", "oneOf", "allOf", "additionalProperties"]) {
    const children = schema[key];
    if (Array.isArray(children)) {
      for (const [index, child] of children.entries()) yield* schemaNodes(child, `${path}/${key}/${index}`);
    } else if (isRecord(children)) yield* schemaNodes(children, `${path}/${key}`);
  }
}
