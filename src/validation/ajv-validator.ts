// The default input validator: ajv, compiled once per schema, with errors a model can act on.
import { Ajv, type ErrorObject, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { InputValidator, InputValidatorFactory, ValidationIssue } from "../core/dispatch/validate.js";
import type { JsonObject } from "../core/types.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

const OPTIONS: Options = { allErrors: true, strict: false, verbose: true, addUsedSchema: false, logger: false };

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function compilerFor(schema: JsonObject): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("2020-12") || declared.includes("2019-09")) {
    if (draft2020 === undefined) {
      draft2020 = new Ajv2020(OPTIONS);
      addFormats(draft2020);
    }
    return draft2020;
  }
  if (draft07 === undefined) {
    draft07 = new Ajv(OPTIONS);
    addFormats(draft07);
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

function toIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues.length > 0 ? issues : [{ path: "input", message: "does not match the schema" }];
}

function toIssue(error: ErrorObject): ValidationIssue {
  const path = formatPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const expected = describeSchema((error.parentSchema as Record<string, unknown> | undefined)?.properties, missing);
      return { path: joinPath(path, missing), message: `missing required property${expected}` };
    }
    case "additionalProperties": {
      const extra = String(params.additionalProperty);
      const allowed = Object.keys(
        ((error.parentSchema as Record<string, unknown> | undefined)?.properties ?? {}) as object,
      );
      return {
        path: joinPath(path, extra),
        message: `unexpected property; allowed properties: ${allowed.length === 0 ? "none" : allowed.join(", ")}`,
      };
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

function describeSchema(properties: unknown, key: string): string {
  if (typeof properties !== "object" || properties === null) return "";
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
    return `string ${JSON.stringify(shown)}`;
  }
  return `${typeof value} ${String(value)}`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function joinPath(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function formatPath(pointer: string): string {
  let path = "input";
  if (pointer === "") return path;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path = /^\d+$/.test(key) ? `${path}[${key}]` : joinPath(path, key);
  }
  return path;
}
