// loadConfig: reads toolwire.config.json, reports malformed JSON with line and column, and validates it against the shipped schema.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonObject, JsonPrimitive, PolicyLayer } from "../core/types.js";
import { locateJsonError } from "./locate-json-error.js";

/** A plugin entry of the config file. */
export interface PluginConfig {
  readonly id?: string;
  /** Relative to the config file's folder, or a package name. */
  readonly module: string;
  /** Default true. */
  readonly enabled?: boolean;
  readonly options?: JsonObject;
}

interface McpServerCommon {
  readonly id: string;
  /** Default true. */
  readonly enabled?: boolean;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly timeoutMs?: number;
}
/** An MCP server started as a child process and spoken to over stdio. */
export interface McpStdioServerConfig extends McpServerCommon {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}
/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommon {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The availability context, as the config file states it. */
export interface AvailabilityConfig {
  readonly authProviders?: readonly string[];
  readonly config?: JsonObject;
  /** Names of environment variables to read; only these are visible to `env` signals. */
  readonly env?: readonly string[];
  readonly context?: Readonly<Record<string, JsonPrimitive>>;
}

/** The contents of `toolwire.config.json` once validated. */
export interface ToolwireConfig {
  readonly $schema?: string;
  readonly workspace?: string;
  readonly builtins?: { readonly enabled?: boolean };
  readonly allowedTools?: readonly string[];
  readonly policy?: readonly PolicyLayer[];
  readonly plugins?: readonly PluginConfig[];
  readonly mcpServers?: readonly McpServerConfig[];
  readonly availability?: AvailabilityConfig;
  readonly skills?: readonly string[];
}

/** A validated config and where it came from. */
export interface LoadedConfig {
  /** Deep-frozen. */
  readonly config: ToolwireConfig;
  /** The absolute path of the file. */
  readonly file: string;
  /** The file's folder: relative paths in the config resolve against it. */
  readonly dir: string;
}

/** One thing wrong with a config: where (`policy[1].label`, `(root)`) and what was expected. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
  /** For `invalid-json`: where the text breaks (1-based). */
  readonly line?: number;
  readonly column?: number;
}

export type ConfigErrorCode = "config-not-found" | "invalid-json" | "invalid-config";

/** A config file that cannot be used. Nothing was changed; `issues` lists every problem found. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    readonly code: ConfigErrorCode,
    /** The config file, when there is one. */
    readonly file: string | undefined,
    readonly issues: readonly ConfigIssue[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The config file's usual name. */
export const CONFIG_FILE_NAME = "toolwire.config.json";

const SCHEMA_URL = new URL("../../schema/toolwire.config.schema.json", import.meta.url);
let schema: JsonObject | undefined;
let validate: ValidateFunction | undefined;

/** The JSON Schema the config is validated against (shipped in the package as `schema/toolwire.config.schema.json`). */
export function readConfigSchema(): JsonObject {
  schema ??= JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as JsonObject;
  return schema;
}

/**
 * Reads, parses and validates a config file. Throws `ConfigError`: `config-not-found` when the file
 * cannot be read, `invalid-json` (with the line and column) when it is not JSON, `invalid-config`
 * (with every bad path and what was expected) when it breaks the schema. Reading a config changes
 * nothing: only what the caller builds from the result does.
 */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
    throw new ConfigError(
      "config-not-found",
      file,
      [{ path: "(root)", message: why }],
      `Cannot read config ${file}: ${why}`,
      { cause: error },
    );
  }
  return { config: parseConfig(text, file), file, dir: dirname(file) };
}

/**
 * Parses and validates config text (the part of `loadConfig` after reading). `file` only names the
 * source in messages. Returns the config deep-frozen; throws `ConfigError` as `loadConfig` does.
 */
export function parseConfig(text: string, file?: string): ToolwireConfig {
  const source = file ?? "config";
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const where = locateJsonError(body);
    const issue: ConfigIssue =
      where === undefined
        ? { path: "(root)", message: (error as Error).message }
        : {
            path: `line ${where.line}, column ${where.column}`,
            message: where.message,
            line: where.line,
            column: where.column,
          };
    throw new ConfigError(
      "invalid-json",
      file,
      [issue],
      `Invalid JSON in ${source} at ${issue.path}: ${issue.message}`,
      {
        cause: error,
      },
    );
  }
  const issues = validateConfig(value);
  if (issues.length > 0) {
    throw new ConfigError(
      "invalid-config",
      file,
      issues,
      `Invalid config ${source}:\n${issues.map((issue) => `- ${issue.path}: ${issue.message}`).join("\n")}`,
    );
  }
  return deepFreeze(value) as ToolwireConfig;
}

/** Every way a value breaks the config schema, plus repeated ids and labels. Empty when it is a valid config. */
export function validateConfig(value: unknown): ConfigIssue[] {
  validate ??= new Ajv({ allErrors: true, strict: false, verbose: true, logger: false }).compile(readConfigSchema());
  if (!validate(value)) return dedupe((validate.errors ?? []).filter((e) => e.keyword !== "if").map(toIssue));
  return duplicateIssues(value as ToolwireConfig);
}

function duplicateIssues(config: ToolwireConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const check = (
    list: readonly { readonly [k: string]: unknown }[] | undefined,
    key: string,
    what: string,
    at: string,
  ) => {
    const first = new Map<string, number>();
    list?.forEach((item, index) => {
      const id = item[key];
      if (typeof id !== "string") return;
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, index);
      else
        issues.push({
          path: `${at}[${index}].${key}`,
          message: `duplicate ${what} "${id}" (also at ${at}[${earlier}])`,
        });
    });
  };
  check(config.policy as never, "label", "layer label", "policy");
  check(config.plugins as never, "id", "plugin id", "plugins");
  check(config.mcpServers as never, "id", "server id", "mcpServers");
  return issues;
}

const PATTERN_WORDS: Record<string, string> = {
  "^[A-Za-z0-9_-]{1,64}$": "a tool name (letters, digits, _ and -, 1 to 64 characters)",
  "^[A-Za-z0-9_.-]{1,64}$": "an id (letters, digits, _, . and -, 1 to 64 characters)",
  "^https?://": "an http:// or https:// URL",
  "^[A-Za-z_][A-Za-z0-9_]*$": "an environment variable name (letters, digits and _, not starting with a digit)",
};

function toIssue(error: ErrorObject): ConfigIssue {
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
    case "exclusiveMinimum":
      return { path, message: `must be greater than ${String(params.limit)}, got ${describeValue(error.data)}` };
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
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

function joinPath(path: string, key: string): string {
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

/** Same letters ignoring case, or one edit apart: a likely typo. */
function isNear(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const rest = (s: string, skip: number) => s.slice(i + skip);
  return (
    rest(x, 1) === rest(y, 1) ||
    rest(x, 1) === rest(y, 0) ||
    rest(x, 0) === rest(y, 1) ||
    (x[i] === y[i + 1] && x[i + 1] === y[i] && x.slice(i + 2) === y.slice(i + 2))
  );
}

function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
