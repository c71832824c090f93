// loadConfig: reads toolwire.config.json, reports malformed JSON with line and column, and validates it against the shipped schema.

import { constants, readFileSync, type Stats } from "node:fs";
import { open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { ToolwireError } from "../core/errors.js";
import { isNear } from "../core/is-near.js";
import type { JsonObject, JsonPrimitive, PolicyLayer } from "../core/types.js";
import type { ExecutorConfig } from "../executors/executor-config.js";
import type { McpServerConfig } from "../mcp/client/mcp-config-types.js";
import type { GatewayOptions } from "../mcp/server/gateway/gateway-options.js";
import type { SandboxOptions } from "../sandbox/sandbox-options.js";
import { loadAjv } from "../validation/load-ajv.js";
import { locateJsonError } from "./locate-json-error.js";

/** A plugin entry of the config file. */
export interface PluginConfig {
  readonly id?: string;
  /** Relative to the config file's folder, or a package name. */
  readonly module: string;
  /** Default true. */
  readonly enabled?: boolean;
  readonly options?: JsonObject;
  /** How long importing the module and running its tool factory may take. Default 10 000 ms. */
  readonly loadTimeoutMs?: number;
}

export type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from "../mcp/client/mcp-config-types.js";

/** The environment of the built-in `bash` tool, as the config file states it. */
export interface BuiltinsEnvConfig {
  /** Names or globs (`*` matches anything) of this process's environment variables that reach `bash`. */
  readonly pass?: readonly string[];
  /** Variables set for `bash`, by name. */
  readonly set?: Readonly<Record<string, string>>;
}

/** The `builtins` section. */
export interface BuiltinsConfig {
  /** Default true. */
  readonly enabled?: boolean;
  readonly env?: BuiltinsEnvConfig;
  /** How `bash` is confined. Default `{ mode: "auto" }` (see docs/sandbox.md). */
  readonly sandbox?: "off" | SandboxOptions;
}

/** The availability context, as the config file states it. */
export interface AvailabilityConfig {
  readonly authProviders?: readonly string[];
  readonly config?: JsonObject;
  /** Names of environment variables to read; only these are visible to `env` signals. */
  readonly env?: readonly string[];
  readonly context?: Readonly<Record<string, JsonPrimitive>>;
}

/** Which calls need a person's approval: policy patterns, and how long a request stays open. */
export interface ApprovalsConfig {
  readonly require: readonly string[];
  readonly ttlMs?: number;
  /** The environment variable with `approvals.secret`. */
  readonly secretEnv?: string;
  /**
   * Where decided approval ids are claimed: `redis://…`, `rediss://…`, or `env:NAME` (the address in that
   * variable), shared by every process that uses it. Default: in this process's memory.
   */
  readonly store?: string;
}

/**
 * The `serve` section: how `toolwire serve --http` lets clients in and how much each may do. The same fields as
 * `serveMcp`'s gateway options; `audit.file` is relative to the config's folder and a token may be `env:NAME`.
 */
export type ServeConfig = GatewayOptions;

export type { ExecutorConfig } from "../executors/executor-config.js";

/** The contents of `toolwire.config.json` once validated. */
export interface ToolwireConfig {
  readonly $schema?: string;
  readonly workspace?: string;
  /** The most characters of text a tool result may hold before it is saved to a file and previewed. Default 50 000. */
  readonly maxResultChars?: number;
  /** The most bytes the results saved in the workspace may take. Default 1 GiB. */
  readonly maxSpillBytes?: number;
  /** OpenTelemetry for every call, through the global tracer and meter (`recordContent` adds arguments and results). */
  readonly telemetry?: boolean | { readonly recordContent?: boolean };
  readonly builtins?: BuiltinsConfig;
  readonly allowedTools?: readonly string[];
  readonly policy?: readonly PolicyLayer[];
  /** Policy patterns of tools the model finds through `tool_search` instead of getting up front (SPEC 19). */
  readonly defer?: readonly string[];
  /** While the tools sent up front exceed this many estimated tokens, MCP and plugin tools are deferred, largest first. */
  readonly deferBudgetTokens?: number;
  readonly plugins?: readonly PluginConfig[];
  /** Remote executors (SPEC 18): matching tools run as BullMQ jobs on `toolwire worker` processes. */
  readonly executors?: readonly ExecutorConfig[];
  readonly approvals?: ApprovalsConfig;
  readonly mcpServers?: readonly McpServerConfig[];
  readonly availability?: AvailabilityConfig;
  readonly skills?: readonly string[];
  readonly serve?: ServeConfig;
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

/** Codes of `ConfigError` (docs/errors.md says what each means). */
export type ConfigErrorCode =
  | "config-not-found"
  | "config-not-a-file"
  | "config-too-large"
  | "invalid-json"
  | "invalid-config";

/** A config file that cannot be used. Nothing was changed; `issues` lists every problem found. */
export class ConfigError extends ToolwireError<ConfigErrorCode> {
  override readonly name = "ConfigError";
  constructor(
    code: ConfigErrorCode,
    /** The config file, when there is one. */
    readonly file: string | undefined,
    readonly issues: readonly ConfigIssue[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The config file's usual name. */
export const CONFIG_FILE_NAME = "toolwire.config.json";
/** The largest config file read, in bytes (4 MiB). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
/** How deeply arrays and objects may nest in a config. */
export const MAX_CONFIG_DEPTH = 64;

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
 * cannot be read, `config-not-a-file` when it is a FIFO, device, socket or folder (it is never read then,
 * so nothing blocks), `config-too-large` above `MAX_CONFIG_BYTES`, `invalid-json` (with the line and column)
 * when it is not JSON, `invalid-config` (with every bad path and what was expected) when it breaks the
 * schema or nests deeper than `MAX_CONFIG_DEPTH`. Reading a config changes nothing: only what the caller
 * builds from the result does.
 */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  return { config: parseConfig(await readConfigText(file), file), file, dir: dirname(file) };
}

async function readConfigText(file: string): Promise<string> {
  const fail = (code: ConfigErrorCode, why: string, cause?: unknown): never => {
    throw new ConfigError(
      code,
      file,
      [{ path: "(root)", message: why }],
      `Cannot read config ${file}: ${why}`,
      cause === undefined ? undefined : { cause },
    );
  };
  const cannot = (error: NodeJS.ErrnoException): never =>
    fail("config-not-found", error.code === "ENOENT" ? "no such file" : error.message, error);
  const refuseKind = (stats: Stats) => {
    if (stats.isDirectory()) fail("config-not-a-file", "it is a folder");
    if (!stats.isFile()) fail("config-not-a-file", `it is ${kindOf(stats)}, not a regular file`);
  };
  // The kind is judged before opening (a socket cannot be opened, a FIFO would wait for a writer), and again on
  // the open file, opened non-blocking, in case the path changed in between.
  refuseKind(await stat(file).catch(cannot));
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(cannot);
  try {
    const stats = await handle.stat();
    refuseKind(stats);
    const limit = `larger than ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB`;
    if (stats.size > MAX_CONFIG_BYTES) fail("config-too-large", `it is ${limit}`);
    // The file may grow after the stat: read at most one byte past the limit to tell.
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_CONFIG_BYTES) fail("config-too-large", `it is ${limit}`);
    return buffer.toString("utf8", 0, length);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    return fail("config-not-found", (error as Error).message, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "something else";
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

/**
 * Every way a value breaks the config schema, plus repeated ids and labels. Empty when it is a valid
 * config. A value nested deeper than `MAX_CONFIG_DEPTH` gets that one issue (found without recursion).
 */
export function validateConfig(value: unknown): ConfigIssue[] {
  const deep = tooDeepPath(value, MAX_CONFIG_DEPTH);
  if (deep !== undefined) {
    return [
      {
        path: deep,
        message: `nests deeper than ${MAX_CONFIG_DEPTH} levels of lists and objects; flatten this value`,
      },
    ];
  }
  if (validate === undefined) {
    const Ajv = loadAjv();
    validate = new Ajv({ allErrors: true, strict: false, verbose: true, logger: false }).compile(readConfigSchema());
  }
  if (!validate(value)) {
    // A bad property name is reported by its "pattern" error; the "propertyNames" one after it says no more.
    const errors = (validate.errors ?? []).filter((e) => e.keyword !== "if" && e.keyword !== "propertyNames");
    return dedupe(errors.map(toIssue));
  }
  return [...duplicateIssues(value as ToolwireConfig), ...authIssues(value as ToolwireConfig)];
}

/** What the schema cannot say well: client credentials take exactly one of a secret and a private key. */
function authIssues(config: ToolwireConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  config.mcpServers?.forEach((server, index) => {
    const auth = "url" in server ? server.auth : undefined;
    if (auth?.type !== "client_credentials") return;
    if ((auth.clientSecretEnv === undefined) === (auth.privateKeyEnv === undefined)) {
      issues.push({
        path: `mcpServers[${index}].auth`,
        message:
          "needs exactly one of clientSecretEnv (the variable with a client secret) or privateKeyEnv (with a PEM private key)",
      });
    }
  });
  return issues;
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
  check(config.executors as never, "id", "executor id", "executors");
  return issues;
}

const PATTERN_WORDS: Record<string, string> = {
  "^[A-Za-z0-9_-]{1,64}$": "a tool name (letters, digits, _ and -, 1 to 64 characters)",
  "^[A-Za-z0-9_.-]{1,64}$": "an id (letters, digits, _, . and -, 1 to 64 characters)",
  "^https?://": "an http:// or https:// URL",
  "^(rediss?://|env:)": "a redis:// or rediss:// address, or env:NAME",
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
function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const MAX_PATH_CHARS = 120;

/** The path (cut to `MAX_PATH_CHARS`) of the first list or object nested deeper than `limit`, or `undefined`. */
function tooDeepPath(value: unknown, limit: number): string | undefined {
  if (!isContainer(value)) return undefined;
  // An explicit stack of the open containers: no recursion, so no nesting overflows the call stack.
  const frames = [{ node: value as Record<string, unknown>, keys: Object.keys(value), next: 0 }];
  while (frames.length > 0) {
    const top = frames[frames.length - 1] as (typeof frames)[number];
    if (top.next >= top.keys.length) {
      frames.pop();
      continue;
    }
    const child = top.node[top.keys[top.next++] as string];
    if (!isContainer(child)) continue;
    if (frames.length >= limit) {
      let path = "(root)";
      for (const frame of frames) {
        const key = frame.keys[frame.next - 1] as string;
        path = Array.isArray(frame.node) ? `${path === "(root)" ? "" : path}[${key}]` : joinPath(path, key);
        if (path.length > MAX_PATH_CHARS) return `${path.slice(0, MAX_PATH_CHARS)}…`;
      }
      return path;
    }
    frames.push({ node: child as Record<string, unknown>, keys: Object.keys(child), next: 0 });
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

function deepFreeze(value: unknown): unknown {
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (isContainer(next) && !Object.isFrozen(next)) {
      Object.freeze(next);
      for (const child of Object.values(next)) pending.push(child);
    }
  }
  return value;
}
