// loadConfig: reads toolwire.config.json, reports malformed JSON with line and column, and validates it against the
// shipped schema.

import { constants, type Stats } from "node:fs";
import { open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ToolwireError } from "../core/errors.js";
import type { ConfigIssue } from "./config-issue.js";
import { locateJsonError } from "./locate-json-error.js";
import { listMcpServers, type McpServersForm, mcpServersFormOf } from "./mcp-server-entries.js";
import type { ToolwireConfig } from "./toolwire-config.js";
import { validateConfig } from "./validate-config.js";

/** A validated config and where it came from. */
export interface LoadedConfig {
  /** Deep-frozen. */
  readonly config: ToolwireConfig;
  /** The absolute path of the file. */
  readonly file: string;
  /** The file's folder: relative paths in the config resolve against it. */
  readonly dir: string;
  /** How the file wrote `mcpServers` (`config.mcpServers` is a list either way); absent when it has none. */
  readonly mcpServersForm?: McpServersForm;
}

/** Codes of `ConfigError` (docs/errors.md says what each means). */
export type ConfigErrorCode =
  | "config-not-found"
  | "config-not-a-file"
  | "config-too-large"
  | "invalid-json"
  | "invalid-config"
  | "invalid-pins-file";

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
  const { config, mcpServersForm } = readConfig(await readConfigText(file), file);
  return { config, file, dir: dirname(file), ...(mcpServersForm === undefined ? {} : { mcpServersForm }) };
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
 * source in messages. Returns the config deep-frozen, `mcpServers` as a list whichever form the text used;
 * throws `ConfigError` as `loadConfig` does.
 */
export function parseConfig(text: string, file?: string): ToolwireConfig {
  return readConfig(text, file).config;
}

function readConfig(text: string, file?: string): { config: ToolwireConfig; mcpServersForm?: McpServersForm } {
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
  const { mcpServers } = value as { mcpServers?: unknown };
  const mcpServersForm = mcpServersFormOf(mcpServers);
  const config = (
    mcpServersForm === undefined ? value : { ...(value as object), mcpServers: listMcpServers(mcpServers) }
  ) as ToolwireConfig;
  return { config: deepFreeze(config) as ToolwireConfig, ...(mcpServersForm === undefined ? {} : { mcpServersForm }) };
}

function deepFreeze(value: unknown): unknown {
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "object" && next !== null && !Object.isFrozen(next)) {
      Object.freeze(next);
      for (const child of Object.values(next)) pending.push(child);
    }
  }
  return value;
}
