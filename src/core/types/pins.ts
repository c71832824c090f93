// Pinned tool definitions: what an MCP server listed for a tool, its fingerprint, and where pins are kept.
import type { JsonObject } from "./json.js";

/**
 * The parts of a listed MCP tool that pinning covers, as the server sent them (a part it left out is absent): its
 * name, title, description, input schema, output schema and annotations.
 */
export interface PinnedToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
}

/** A definition and its fingerprint: `"sha256:"` and the hex SHA-256 of its RFC 8785 canonical JSON. */
export interface ToolPin {
  readonly fingerprint: string;
  readonly definition: PinnedToolDefinition;
}

/** One kept pin: a server's tool (by the server's own name for it) and its pin. */
export interface ToolPinEntry {
  readonly serverId: string;
  readonly toolName: string;
  readonly pin: ToolPin;
}

/**
 * Where a registry keeps its pins, by MCP server id and the server's tool name (docs/pins.md). Synchronous: a
 * registry reads and records pins during a refresh. `set` may throw (a file that cannot be written); the refresh then
 * fails and the registry keeps its previous Map.
 */
export interface ToolPinStore {
  get(serverId: string, toolName: string): ToolPin | undefined;
  /** Records (or replaces) these pins, all at once: a refresh records every new pin in one call. */
  set(entries: readonly ToolPinEntry[]): void;
  /** Every pin, sorted by server id, then tool name. */
  entries(): readonly ToolPinEntry[];
}

/**
 * A pinned tool whose listed definition no longer matches its pin: hidden (`definition-changed`) until accepted.
 * `changed` names the parts that differ, in words: `title`, `description`, `input schema`, `output schema`,
 * `annotations (readOnlyHint, title)`.
 */
export interface ToolDefinitionChange {
  /** The tool's name in the registry (`<server>__<tool>`). */
  readonly name: string;
  readonly serverId: string;
  readonly toolName: string;
  readonly pinned: ToolPin;
  readonly current: ToolPin;
  readonly changed: readonly string[];
}
