// MCP server configs: their shapes, their validation, and the include/exclude filter of server tool names.
import { SandboxError } from "../../sandbox/sandbox-error.js";
import { type ResolvedSandbox, resolveSandboxOptions } from "../../sandbox/sandbox-options.js";
import { McpConnectionError } from "./errors.js";
import type { McpServerConfig, McpStdioServerConfig } from "./mcp-config-types.js";
import { checkMcpAuthConfig } from "./oauth/mcp-auth-config.js";

export type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from "./mcp-config-types.js";

const MAX_TIMER_MS = 2_147_483_647;

/** What `checkMcpServerConfig` checks besides the config: the connect options it validates too. */
interface McpConfigCheckOptions {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly timeoutMs?: number;
  readonly connectTimeoutMs?: number;
  readonly protocol?: unknown;
}

/**
 * Returns the config when it is well formed; throws `McpConnectionError` `invalid-mcp-config` naming
 * the bad field otherwise (no id, both or neither of command and url, wrong types, a non-http url,
 * filters that are not string arrays, timeouts that are not positive numbers up to 2147483647 ms, a
 * `sandbox` that is not `"off"` or valid sandbox options, a malformed `auth`).
 */
export function checkMcpServerConfig(config: McpServerConfig, options: McpConfigCheckOptions = {}): McpServerConfig {
  const record = (typeof config === "object" && config !== null ? config : {}) as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : "";
  const fail = (message: string): never => {
    throw new McpConnectionError("invalid-mcp-config", id, message);
  };
  if (id.trim() === "") fail(`An MCP server config needs a non-empty string id, got ${JSON.stringify(record.id)}`);
  const hasCommand = record.command !== undefined;
  const hasUrl = record.url !== undefined;
  if (hasCommand === hasUrl) fail(`MCP server ${id} needs exactly one of command (stdio) or url (Streamable HTTP)`);
  if (hasCommand) {
    if (typeof record.command !== "string" || record.command === "")
      fail(`MCP server ${id}: command must be a non-empty string`);
    if (record.args !== undefined && !isStringArray(record.args))
      fail(`MCP server ${id}: args must be an array of strings`);
    if (record.env !== undefined && !isStringRecord(record.env))
      fail(`MCP server ${id}: env must map names to strings`);
    if (record.cwd !== undefined && typeof record.cwd !== "string") fail(`MCP server ${id}: cwd must be a string`);
    serverSandbox(config as McpStdioServerConfig);
  } else {
    let url: URL | undefined;
    try {
      url = new URL(String(record.url));
    } catch {
      fail(`MCP server ${id}: url ${JSON.stringify(String(record.url))} is not a URL`);
    }
    if (url !== undefined && url.protocol !== "http:" && url.protocol !== "https:") {
      fail(`MCP server ${id}: url must be http: or https:, got ${url.protocol}`);
    }
    if (record.headers !== undefined && !isStringRecord(record.headers))
      fail(`MCP server ${id}: headers must map names to strings`);
    if (record.auth !== undefined) {
      try {
        checkMcpAuthConfig(id, record.auth);
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    }
  }
  if (options.include !== undefined && !isStringArray(options.include))
    fail(`MCP server ${id}: include must be an array of strings`);
  if (options.exclude !== undefined && !isStringArray(options.exclude))
    fail(`MCP server ${id}: exclude must be an array of strings`);
  for (const key of ["timeoutMs", "connectTimeoutMs"] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === "number" && value > 0 && Number.isFinite(value))) {
      fail(`MCP server ${id}: ${key} must be a positive number, got ${String(value)}`);
    }
    // A longer timer fires at once in Node (it warns and uses 1 ms): a huge timeout would fail every request.
    if (value !== undefined && value > MAX_TIMER_MS) {
      fail(`MCP server ${id}: ${key} must be at most ${MAX_TIMER_MS} ms, got ${String(value)}`);
    }
  }
  if (options.protocol !== undefined && !["auto", "2025", "2026-07-28"].includes(options.protocol as string)) {
    fail(`MCP server ${id}: protocol must be "auto", "2025" or "2026-07-28", got ${JSON.stringify(options.protocol)}`);
  }
  return config;
}

/**
 * The sandbox of a stdio server, resolved with its `cwd` (or the current folder) as the root; `undefined`
 * when it has none or `"off"`. Throws `McpConnectionError` (`invalid-mcp-config`) naming the bad field.
 */
export function serverSandbox(config: McpStdioServerConfig): ResolvedSandbox | undefined {
  try {
    return resolveSandboxOptions(config.sandbox ?? "off", {
      root: config.cwd ?? process.cwd(),
      label: `MCP server ${config.id}: sandbox`,
    });
  } catch (error) {
    if (error instanceof SandboxError) throw new McpConnectionError("invalid-mcp-config", config.id, error.message);
    throw error;
  }
}

/**
 * A predicate over server tool names: kept when `include` is absent or one of its patterns matches,
 * and no `exclude` pattern matches. Patterns are exact names or globs where `*` matches anything;
 * case is ignored and surrounding blanks trimmed.
 */
export function compileToolNameFilter(
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): (name: string) => boolean {
  const toRegExp = (pattern: string) => new RegExp(`^${pattern.trim().split("*").map(escapeRegExp).join(".*")}$`, "i");
  const includes = include?.map(toRegExp);
  const excludes = (exclude ?? []).map(toRegExp);
  return (name: string) =>
    (includes === undefined || includes.some((pattern) => pattern.test(name))) &&
    !excludes.some((pattern) => pattern.test(name));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === "string")
  );
}
