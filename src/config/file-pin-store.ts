// toolwire.pins.json: MCP tools' pinned definitions in a file beside the config, reviewed like a lockfile.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { ToolPinError } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { fingerprintToolDefinition } from "../core/register/fingerprint-tool-definition.js";
import type { PinnedToolDefinition, ToolPin, ToolPinEntry, ToolPinStore } from "../core/types.js";
import type { ConfigIssue } from "./config-issue.js";
import { ConfigError } from "./load-config.js";

/** The pins file's name, beside the config file. */
export const PINS_FILE_NAME = "toolwire.pins.json";
/** The largest pins file read, in bytes (16 MiB). */
const MAX_PINS_BYTES = 16 * 1024 * 1024;
/** The covered parts a pinned definition may have, and the type of each. */
const PARTS: Readonly<Record<string, "string" | "object">> = {
  name: "string",
  title: "string",
  description: "string",
  inputSchema: "object",
  outputSchema: "object",
  annotations: "object",
};

/** A pin store kept in a file. */
export interface FilePinStore extends ToolPinStore {
  /** The file's absolute path. */
  readonly file: string;
}

/** Pins by server id, then tool name. */
type Pins = Map<string, Map<string, ToolPin>>;

/**
 * Opens the pins file `file` (none yet: no pins; it is written at the first pin). Every `set` writes the whole file
 * again, atomically (a temporary file in the same folder, flushed, renamed over it), after reading it anew, so pins
 * another process wrote since are kept; the store then holds what the file holds. The file is deterministic: `version` first, then servers,
 * tools and every object's keys sorted, two-space indented, one definition per tool beside its fingerprint.
 * Throws `ConfigError` `invalid-pins-file` when the file is not a regular file, too large, not JSON, or not a pins
 * file (each issue named, including a fingerprint that does not match its definition); `set` throws it too when the
 * file went bad since, and `ToolPinError` `pins-write-failed` when the file cannot be written.
 */
export function openFilePinStore(file: string): FilePinStore {
  let pins = readPins(file);
  return {
    file,
    get: (serverId, toolName) => pins.get(serverId)?.get(toolName),
    set(entries) {
      if (entries.length === 0) return;
      const next = readPins(file);
      for (const { serverId, toolName, pin } of entries) {
        const tools = next.get(serverId) ?? new Map<string, ToolPin>();
        tools.set(toolName, pin);
        next.set(serverId, tools);
      }
      writeAtomically(file, renderPins(next));
      pins = next;
    },
    entries() {
      const entries: ToolPinEntry[] = [];
      for (const serverId of [...pins.keys()].sort()) {
        const tools = pins.get(serverId) as Map<string, ToolPin>;
        for (const toolName of [...tools.keys()].sort()) {
          entries.push({ serverId, toolName, pin: tools.get(toolName) as ToolPin });
        }
      }
      return entries;
    },
  };
}

/** The file's pins; none when there is no file. */
function readPins(file: string): Pins {
  const text = readPinsText(file);
  if (text === undefined) return new Map();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(file, [{ path: "(root)", message: `not JSON: ${(error as Error).message}` }], error);
  }
  const issues: ConfigIssue[] = [];
  const pins = pinsOf(value, issues);
  if (issues.length > 0) throw invalid(file, issues);
  return pins;
}

function invalid(file: string, issues: readonly ConfigIssue[], cause?: unknown): ConfigError {
  return new ConfigError(
    "invalid-pins-file",
    file,
    issues,
    `Invalid pins file ${file}:\n${issues.map((issue) => `- ${issue.path}: ${issue.message}`).join("\n")}\nFix it (or restore it from version control); deleting it pins every tool anew as it is listed next.`,
    cause === undefined ? undefined : { cause },
  );
}

/** The file's text; `undefined` when it does not exist. A FIFO, device or folder is refused without being read. */
function readPinsText(file: string): string | undefined {
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw invalid(file, [{ path: "(root)", message: "it is not a regular file" }]);
    size = stats.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (error instanceof ConfigError) throw error;
    throw invalid(file, [{ path: "(root)", message: `cannot be read: ${(error as Error).message}` }], error);
  }
  if (size > MAX_PINS_BYTES) {
    throw invalid(file, [{ path: "(root)", message: `it is larger than ${MAX_PINS_BYTES / (1024 * 1024)} MiB` }]);
  }
  try {
    // Non-blocking, in case the path became a FIFO since the check.
    const descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(descriptor).isFile()) throw new Error("it is not a regular file");
      return readFileSync(descriptor, "utf8");
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    throw invalid(file, [{ path: "(root)", message: `cannot be read: ${(error as Error).message}` }], error);
  }
}

/** The pins of a parsed file, every problem added to `issues`. */
function pinsOf(value: unknown, issues: ConfigIssue[]): Pins {
  const pins: Pins = new Map();
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.servers)) {
    issues.push({ path: "(root)", message: 'expected { "version": 1, "servers": { ... } }' });
    return pins;
  }
  for (const [serverId, tools] of Object.entries(value.servers)) {
    const at = `servers.${serverId}`;
    if (!isRecord(tools)) {
      issues.push({ path: at, message: "expected an object of tools by name" });
      continue;
    }
    const kept = new Map<string, ToolPin>();
    for (const [toolName, entry] of Object.entries(tools)) {
      const pin = pinOf(`${at}.${toolName}`, toolName, entry, issues);
      if (pin !== undefined) kept.set(toolName, pin);
    }
    pins.set(serverId, kept);
  }
  return pins;
}

function pinOf(at: string, toolName: string, entry: unknown, issues: ConfigIssue[]): ToolPin | undefined {
  if (!isRecord(entry) || typeof entry.fingerprint !== "string" || !isRecord(entry.definition)) {
    issues.push({ path: at, message: 'expected { "fingerprint": "sha256:...", "definition": { ... } }' });
    return undefined;
  }
  const { definition, fingerprint } = entry;
  const before = issues.length;
  for (const [key, part] of Object.entries(definition)) {
    const expected = PARTS[key];
    if (expected === undefined) issues.push({ path: `${at}.definition.${key}`, message: "is not a pinned part" });
    else if (expected === "object" ? !isRecord(part) : typeof part !== "string") {
      issues.push({
        path: `${at}.definition.${key}`,
        message: `expected ${expected === "object" ? "an object" : "a string"}`,
      });
    }
  }
  if (definition.name !== toolName) {
    issues.push({ path: `${at}.definition.name`, message: `expected the tool's name, ${JSON.stringify(toolName)}` });
  }
  if (issues.length > before) return undefined;
  const pinned = definition as unknown as PinnedToolDefinition;
  if (fingerprintToolDefinition(pinned) !== fingerprint) {
    issues.push({
      path: `${at}.fingerprint`,
      message: "does not match the definition beside it (the definition was edited, or the fingerprint)",
    });
    return undefined;
  }
  return { fingerprint, definition: pinned };
}

/** The file's text: `version` first, then servers, tools and every object's keys sorted, two-space indented. */
function renderPins(pins: Pins): string {
  // Object.fromEntries makes own properties, so a tool named "__proto__" is a tool like any other.
  const servers = Object.fromEntries(
    [...pins].map(([serverId, tools]) => [
      serverId,
      Object.fromEntries(
        [...tools].map(([toolName, pin]) => [toolName, { fingerprint: pin.fingerprint, definition: pin.definition }]),
      ),
    ]),
  );
  return `${JSON.stringify({ version: 1, servers: sortKeys(servers) }, null, 2)}\n`;
}

/** A copy with every object's keys in UTF-16 code unit order (keys of digits alone still come first, as JSON.stringify writes them). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(out, key, {
      value: sortKeys(value[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Writes `text` to `file` through a temporary file in the same folder, flushed, then renamed over it: readers see
 * the old file or the new one, never a part. Synchronous, as a registry's refresh is (the workspace's
 * `writeFileAtomic` is asynchronous and bound to the workspace; the pins file lies beside the config). Keeps an
 * existing file's permission bits.
 */
function writeAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  let created = false;
  try {
    let mode = 0o666;
    try {
      const stats = statSync(file);
      if (stats.isFile()) mode = stats.mode & 0o7777;
    } catch {
      // no file yet
    }
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
    const descriptor = openSync(temp, flags, mode);
    created = true;
    try {
      writeFileSync(descriptor, text);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temp, file);
    created = false;
  } catch (error) {
    throw new ToolPinError(
      "pins-write-failed",
      `Cannot write pins file ${file}: ${(error as Error).message}`,
      undefined,
      {
        cause: error,
      },
    );
  } finally {
    if (created) rmSync(temp, { force: true });
  }
}
