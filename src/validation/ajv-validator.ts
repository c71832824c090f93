// The default input validator: ajv, compiled once per schema, with errors a model can act on.
import type { Ajv, ErrorObject, Options } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { InputValidator, InputValidatorFactory, ValidationIssue } from "../core/dispatch/validate.js";
import type { JsonObject } from "../core/types.js";
import { loadAddFormats, loadAjv, loadAjv2020 } from "./load-ajv.js";

const OPTIONS: Options = { allErrors: true, strict: false, verbose: true, addUsedSchema: false, logger: false };

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function compilerFor(schema: JsonObject): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("2020-12") || declared.includes("2019-09")) {
    if (draft2020 === undefined) {
      const Ajv2020 = loadAjv2020();
      draft2020 = new Ajv2020(OPTIONS);
      loadAddFormats()(draft2020);
    }
    return draft2020;
  }
  if (draft07 === undefined) {
    const Ajv = loadAjv();
    draft07 = new Ajv(OPTIONS);
    loadAddFormats()(draft07);
  }
  return draft07;
}

/** Same schema text, same compiled function: MCP servers re-list tools as new objects with the same schemas. */
const compiledByText = new Map<string, InputValidator>();
const MAX_CACHED_TEXTS = 10_000;

/**
 * Compiles a validator with ajv (draft-07 by default, draft 2020-12 when the schema says so).
 * `$schema` is not needed to validate and is dropped (ajv knows no draft-04 meta-schema).
 */
export const createAjvValidator: InputValidatorFactory = (schema) => {
  const text = JSON.stringify(schema);
  const known = compiledByText.get(text);
  if (known !== undefined) return known;
  const { $schema: _ignored, ...rest } = schema;
  const validate = compilerFor(schema).compile(rest);
  const validator: InputValidator = (input) => (validate(input) ? undefined : toIssues(validate.errors ?? []));
  if (compiledByText.size >= MAX_CACHED_TEXTS) compiledByText.clear();
  compiledByText.set(text, validator);
  return validator;
};

// A model's invalid input costs a few microseconds, most of them in writing the messages: the parts that depend only
// on the schema (what a property expects, which properties are allowed) and the paths are worked out once and kept.

/** Up to this many issues are de-duplicated by a scan; more (a hostile input breaking hundreds of rules) by a Set. */
const SCANNED_ISSUES = 16;

function toIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  let seen: Set<string> | undefined;
  for (const error of errors) {
    const issue = toIssue(error);
    if (issues.length < SCANNED_ISSUES && seen === undefined) {
      if (!listsIssue(issues, issue)) issues.push(issue);
      continue;
    }
    if (seen === undefined) seen = new Set(issues.map((known) => `${known.path}\u0000${known.message}`));
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues.length > 0 ? issues : [{ path: "input", message: "does not match the schema" }];
}

function listsIssue(issues: readonly ValidationIssue[], issue: ValidationIssue): boolean {
  for (const known of issues) if (known.path === issue.path && known.message === issue.message) return true;
  return false;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const path = formatPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const expected = expectedOf((error.parentSchema as Record<string, unknown> | undefined)?.properties, missing);
      return { path: joinPath(path, missing), message: `missing required property${expected}` };
    }
    case "additionalProperties": {
      const extra = String(params.additionalProperty);
      return { path: joinPath(path, extra), message: unexpectedPropertyMessage(error.parentSchema) };
    }
    case "type":
      return { path, message: `must be ${String(params.type)}, got ${describeValue(error.data)}` };
    case "enum":
      return {
        path,
        message: `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}, got ${describeValue(error.data)}`,
      };
    case "const":
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}, got ${describeValue(error.data)}` };
    default:
      return { path, message: `${error.message ?? "is invalid"}, got ${describeValue(error.data)}` };
  }
}

/** What each object schema's properties expect (`describeSchema`), by schema and key. */
const expected = new WeakMap<object, Map<string, string>>();

function expectedOf(properties: unknown, key: string): string {
  if (typeof properties !== "object" || properties === null) return "";
  let byKey = expected.get(properties);
  if (byKey === undefined) {
    byKey = new Map();
    expected.set(properties, byKey);
  }
  let text = byKey.get(key);
  if (text === undefined) {
    text = describeSchema(properties, key);
    byKey.set(key, text); // the keys are the schema's own `required` names: a bounded set
  }
  return text;
}

/** The message for a property the schema does not allow, by parent schema. */
const unexpected = new WeakMap<object, string>();

function unexpectedPropertyMessage(parentSchema: unknown): string {
  const key = typeof parentSchema === "object" && parentSchema !== null ? parentSchema : undefined;
  const known = key === undefined ? undefined : unexpected.get(key);
  if (known !== undefined) return known;
  const allowed = Object.keys(((parentSchema as Record<string, unknown> | undefined)?.properties ?? {}) as object);
  const message = `unexpected property; allowed properties: ${allowed.length === 0 ? "none" : allowed.join(", ")}`;
  if (key !== undefined) unexpected.set(key, message);
  return message;
}

function describeSchema(properties: object, key: string): string {
  const property = (properties as Record<string, unknown>)[key];
  if (typeof property !== "object" || property === null) return "";
  const { type, description } = property as Record<string, unknown>;
  const typeText = typeof type === "string" ? type : Array.isArray(type) ? type.join(" or ") : undefined;
  const parts = [
    typeText === undefined ? undefined : `expected ${typeText}`,
    typeof description === "string" ? description : undefined,
  ];
  const text = parts.filter((part) => part !== undefined).join(": ");
  return text === "" ? "" : ` (${text})`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${quoted(shown)}`;
  }
  return `${typeof value} ${String(value)}`;
}

/** `JSON.stringify(text)` for a short text: quoted as it is when nothing in it needs escaping (a third of the cost). */
function quoted(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Control characters, `"`, `\` and surrogates (a lone one is escaped) are left to JSON.stringify.
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(text);
    }
  }
  return `"${text}"`;
}

/** Whether `key` is an identifier (`[A-Za-z_$][A-Za-z0-9_$]*`), so a path can name it with a dot. */
function isIdentifier(key: string): boolean {
  if (key.length === 0) return false;
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    const letter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24;
    if (!letter && (index === 0 || code < 0x30 || code > 0x39)) return false;
  }
  return true;
}

function joinPath(path: string, key: string): string {
  return isIdentifier(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Paths of the pointers seen lately: a model sends the same wrong fields again and again. */
const paths = new Map<string, string>();
const MAX_KEPT_PATHS = 1_000;

function formatPath(pointer: string): string {
  if (pointer === "") return "input";
  let path = paths.get(pointer);
  if (path === undefined) {
    path = pathOf(pointer);
    if (paths.size >= MAX_KEPT_PATHS) paths.clear();
    paths.set(pointer, path);
  }
  return path;
}

function pathOf(pointer: string): string {
  let path = "input";
  if (pointer === "") return path;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path = /^\d+$/.test(key) ? `${path}[${key}]` : joinPath(path, key);
  }
  return path;
}
