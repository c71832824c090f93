// A tool described as data: who owns it, what runs it, and what a model sees of it.
import type { ToolAvailabilityExpression } from "./availability.js";
import type { JsonObject } from "./json.js";

/** Who owns a tool: the host itself, a plugin, a channel or an MCP server. */
export type ToolOwnerRef =
  | { readonly kind: "core" }
  | { readonly kind: "plugin"; readonly pluginId: string }
  | { readonly kind: "channel"; readonly channelId: string; readonly pluginId?: string }
  | { readonly kind: "mcp"; readonly serverId: string };

/** A tagged reference to the code that runs a tool; data only, never a function. */
export type ToolExecutorRef =
  | { readonly kind: "core"; readonly executorId: string }
  | { readonly kind: "plugin"; readonly pluginId: string; readonly toolName: string }
  | { readonly kind: "channel"; readonly channelId: string; readonly actionId: string }
  | { readonly kind: "mcp"; readonly serverId: string; readonly toolName: string };

/**
 * Where a tool's results come from (docs/security.md): `untrusted` results may carry text from outside (a web page,
 * an MCP server's answer) that tries to steer the model, so they taint the session.
 */
export type ToolTrust = "trusted" | "untrusted";

/**
 * What a call of a tool can change: `none` (it only reads), `local` (files of this machine), `external` (anything
 * beyond: commands, the network, other systems). A tool that declares none counts as `external`.
 */
export type ToolEffects = "none" | "local" | "external";

/** The public, executor-free description of a tool: what a planner and a model see. */
export interface ToolDescriptor {
  /** Matches /^[A-Za-z0-9_-]{1,64}$/, what every model provider accepts. */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** A JSON Schema of `type: "object"`. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly owner: ToolOwnerRef;
  /** Hidden tools may omit it; a visible tool without one is a contract error. */
  readonly executor?: ToolExecutorRef;
  /** Absent means always available. */
  readonly availability?: ToolAvailabilityExpression;
  /** MCP's hint names, e.g. `readOnlyHint`, `destructiveHint`. */
  readonly annotations?: JsonObject;
  /** MCP's tool icons (`{ src, mimeType?, sizes?, theme? }`), for clients that show them; never sent to a model. */
  readonly icons?: readonly JsonObject[];
  /** MCP's tool `_meta`, kept as sent so a gateway passes it on; never sent to a model. */
  readonly _meta?: JsonObject;
  readonly sortKey?: string;
  /**
   * `true`: the model is not sent this tool's definition up front but finds it through `tool_search`
   * (docs/deferred-tools.md); calling it by name works either way. Absent or `false`: deferred only when the registry's
   * `defer` patterns or its token budget say so.
   */
  readonly defer?: boolean;
  /** Absent: `untrusted` for MCP tools, `trusted` otherwise (docs/security.md). */
  readonly trust?: ToolTrust;
  /** Absent: `external`, except MCP tools annotated `readOnlyHint: true` (`none`). */
  readonly effects?: ToolEffects;
}

/** What a model provider needs of a tool, and nothing else. */
export interface ToolProtocolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}
