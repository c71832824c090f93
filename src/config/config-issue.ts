// ConfigIssue: one thing wrong with a config, and the words for each way a value breaks the schema.
import type { ErrorObject } from "ajv";
import { isNear } from "../core/is-near.js";

/** One thing wrong with a config: where (`policy[1].label`, `(root)`) and what was expected. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
  /** For `invalid-json`: where the text breaks (1-based). */
  readonly line?: number;
  readonly column?: number;
}

/** The schema's errors as issues: where, and what was expected, each said once. */
export function configIssuesOf(errors: readonly ErrorObject[]): ConfigIssue[] {
  return dedupe(errors.map(toIssue));
}

const PATTERN_WORDS: Record<string, string> = {
  "^[A-Za-z0-9_-]{1,64}$": "a tool name (letters, digits, _ and -, 1 to 64 characters)",
  "^[A-Za-z0-9_.-]{1,64}$": "an id (letters, digits, _, . and -, 1 to 64 characters)",
  "^https?://": "an http:// or https:// URL",
  "^(rediss?://|env:)": "a redis:// or rediss:// address, or env:NAME",
  "^(memory$|rediss?://|env:)": "memory, a redis:// or rediss:// address, or env:NAME",
  "^[A-Za-z_][A-Za-z0-9_]*$": "an environment variable name (letters, digits and _, not starting with a digit)",
  "^[A-Za-z0-9_*]{1,128}$": "a variable name or glob (letters, digits, _ and *, 1 to 128 characters)",
  "^[^\\u0000]*$": "a string without NUL characters",
  "^(\\*\\.)?[A-Za-z0-9][A-Za-z0-9.-]{0,252}$|^\\[?[0-9A-Fa-f:.]+\\]?$":
    "a host name or IP address (such as packages.example.com), or *. and a domain",
  "^\\S+$": "a scope name without spaces",
  "^https://[^/]+/.+": "an https:// URL with a path",
};

function toIssue(error: ErrorObject): ConfigIssue {
  const named = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (named !== undefined) {
    const words = PATTERN_WORDS[String((error.params as Record<string, unknown>).pattern)] ?? "a valid name";
    return { path: joinPath(formatPath(error.instancePath), named), message: `the name must be ${words}` };
  }
  const path = formatPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const schemaOf = (error.parentSchema ?? {}) as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const property = (schemaOf.properties as Record<string, Record<string, unknown>> | undefined)?.[missing];
      return { path: joinPath(path, missing), message: `is required${expectedOf(property)}` };
    }
    case "additionalProperties": {
      const extra = String(params.additionalProperty);
      const allowed = Object.keys((schemaOf.properties ?? {}) as object);
      const near = allowed.find((name) => isNear(name, extra));
      return {
        path: joinPath(path, extra),
        message: `unknown property${near === undefined ? "" : ` (did you mean "${near}"?)`}; expected one of: ${allowed.join(", ")}`,
      };
    }
    case "type":
      return { path, message: `must be ${article(String(params.type))}, got ${describeValue(error.data)}` };
    case "pattern": {
      const words = PATTERN_WORDS[String(params.pattern)] ?? `a string matching ${String(params.pattern)}`;
      return { path, message: `must be ${words}, got ${describeValue(error.data)}` };
    }
    case "minLength":
      return { path, message: "must not be empty" };
    case "enum":
      return {
        path,
        message: `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}, got ${describeValue(error.data)}`,
      };
    case "const":
      return {
        path,
        message: `must be ${JSON.stringify(params.allowedValue)}${typeof params.allowedValue === "string" ? " or an object" : ""}, got ${describeValue(error.data)}`,
      };
    case "exclusiveMinimum":
      return { path, message: `must be greater than ${String(params.limit)}, got ${describeValue(error.data)}` };
    case "minimum":
      return { path, message: `must be at least ${String(params.limit)}, got ${describeValue(error.data)}` };
    case "maximum":
      return { path, message: `must be at most ${String(params.limit)}, got ${describeValue(error.data)}` };
    default:
      return { path, message: `${error.message ?? "is invalid"}, got ${describeValue(error.data)}` };
  }
}

function expectedOf(property: Record<string, unknown> | undefined): string {
  if (property === undefined) return "";
  if (typeof property.type === "string") return ` (expected ${article(property.type)})`;
  if (typeof property.$ref === "string") {
    const name = property.$ref.split("/").pop() ?? "";
    if (name === "id") return " (expected an id: letters, digits, _, . and -)";
  }
  return "";
}

function article(type: string): string {
  const words: Record<string, string> = {
    object: "an object",
    array: "a list",
    string: "a string",
    boolean: "true or false",
    number: "a number",
    integer: "an integer",
    null: "null",
  };
  return type
    .split(",")
    .map((t) => words[t] ?? t)
    .join(" or ");
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    // An address's user and password (`redis://user:password@host`) are never repeated: they are a credential.
    const shown = value.replace(/\/\/[^/@\s]*@/g, "//…@");
    return `the string ${JSON.stringify(shown.length > 40 ? `${shown.slice(0, 40)}…` : shown)}`;
  }
  return `${typeof value} ${String(value)}`;
}

/** `path` and `key` joined the way issues spell a path: `a.b`, `a[0]`, `a["not an identifier"]`. */
export function joinPath(path: string, key: string): string {
  const base = path === "(root)" ? "" : path;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
    ? `${base}${base === "" ? "" : "."}${key}`
    : `${base}[${JSON.stringify(key)}]`;
}

function formatPath(pointer: string): string {
  if (pointer === "") return "(root)";
  let path = "(root)";
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path = /^\d+$/.test(key) ? `${path === "(root)" ? "" : path}[${key}]` : joinPath(path, key);
  }
  return path;
}

/** The issues without repeats: ajv may report the same path and problem more than once. */
function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
