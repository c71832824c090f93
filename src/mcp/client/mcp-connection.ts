// The bridge's public shapes: how a connection to an MCP server behaves (its options) and what it offers.
import type { AuthProvider, OAuthClientProvider } from "@modelcontextprotocol/client";
import type { AgentTool, JsonValue, LiveToolSource, ToolEffects, ToolLogLevel, ToolTrust } from "../../core/types.js";
import type { McpElicitationHandler } from "./answer-elicitation.js";
import type { McpConnectionError } from "./errors.js";
import type { McpAppResource } from "./mcp-app.js";
import type { McpProtocolChoice } from "./mcp-config-types.js";
import type { SkippedMcpTool } from "./read-tool-listing.js";
import type { ReconnectBackoff } from "./reconnect.js";

/** How a connection behaves. Every field is optional. */
export interface McpConnectOptions {
  /** Server tool names (exact, or globs where `*` matches anything; case ignored) to bridge. Default: all. */
  readonly include?: readonly string[];
  /** Server tool names (same syntax) to leave out; wins over `include`. */
  readonly exclude?: readonly string[];
  /** Per request (each call, each re-list), reset by every progress notification. Default 60 000 ms. */
  readonly timeoutMs?: number;
  /** For starting the server and the handshake. Default 30 000 ms. */
  readonly connectTimeoutMs?: number;
  /**
   * Which protocol era to speak. `auto` (the default) asks the server with `server/discover` and speaks
   * 2026-07-28 when it offers it, else falls back to the 2025 `initialize` handshake; `2025` only does
   * the handshake; `2026-07-28` accepts nothing else and fails the connect against an older server.
   */
  readonly protocol?: McpProtocolChoice;
  /**
   * Overrides the server's tools' trust for flow rules (docs/security.md): `"trusted"` for a server whose answers you
   * control. Default: a tool's own, else `"untrusted"`.
   */
  readonly trust?: ToolTrust;
  /** Overrides the server's tools' effects. Default: `"none"` for tools annotated `readOnlyHint`, else `"external"`. */
  readonly effects?: ToolEffects;
  /** Spacing of reconnect attempts after failures. Default: 500 ms, doubling, capped at 30 s. */
  readonly backoff?: ReconnectBackoff;
  /** The client's name and version in the handshake. Default `toolwire`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Receives a stdio server's stderr. By default it is kept (the last 4 KB) for error messages only. */
  readonly onStderr?: (text: string) => void;
  /**
   * The server's log messages (`notifications/message`) that arrive while no call runs; during calls they
   * go to the calls' `context.log` (and so to `tool_log` listeners and `serve`'s clients).
   */
  readonly onLog?: (message: {
    readonly level: ToolLogLevel;
    readonly data: JsonValue;
    readonly logger?: string;
  }) => void;
  /**
   * Authorizes with an HTTP server: `createMcpOAuthProvider` (a login), `createMcpClientCredentialsProvider`, any SDK
   * `OAuthClientProvider` or `{ token }`. Default: the one the config's `auth` describes, else none.
   */
  readonly authProvider?: AuthProvider | OAuthClientProvider;
  /** Trouble that did not fail a call: a lost connection, a re-list that failed, a stray message. */
  readonly onError?: (error: McpConnectionError) => void;
  /**
   * Answers the server's questions for a person (elicitation: a 2026-07-28 `input_required` result or task, a 2025
   * `elicitation/create` request): `{ action: "accept", content? }` (the form's defaults fill what `content` leaves
   * out), `{ action: "decline" }` or `{ action: "cancel" }`. Without it nobody can answer: the call ends with
   * `approval-required` (a 2025 server is told `cancel`). A decline, a cancel or a handler that throws ends the call
   * with `approval-declined` (a 2025 server hears the answer and its own result ends the call).
   */
  readonly onElicitation?: McpElicitationHandler;
}

/**
 * A connected MCP server as a live tool source (docs/core.md): put it in a registry's
 * `extensions` and the registry refreshes itself when the server's tool list changes.
 */
export interface McpConnection extends LiveToolSource {
  readonly serverId: string;
  /** The bridged tools, in the server's listing order; a new array after each change. */
  readonly tools: readonly AgentTool[];
  /** Listed tools that passed the filters but could not be bridged (`defineTool` refused them), with the reason. */
  readonly skipped: readonly SkippedMcpTool[];
  /** The server's name and version from the latest handshake. */
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined;
  /**
   * The protocol revision the latest connection speaks (`2026-07-28`, or a 2025 one such as `2025-11-25`),
   * and its era: `modern` (stateless, found by `server/discover`) or `legacy` (the `initialize` handshake).
   */
  readonly protocol: { readonly version: string; readonly era: "modern" | "legacy" } | undefined;
  /** Whether a connection is open now (false after the server died, until the next call reconnects). */
  readonly connected: boolean;
  /** The stdio server's process id while connected; `undefined` for HTTP or when not connected. */
  readonly pid: number | undefined;
  /** Calls the listener after `tools` changed; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  /**
   * Reads an MCP App, the `ui://` resource a tool names in `_meta.ui.resourceUri` (docs/mcp.md#apps), with
   * `resources/read`; connects first if needed. Rejects with `McpConnectionError`: `mcp-app-invalid-uri`,
   * `mcp-app-not-found`, `mcp-app-not-html`, `mcp-timeout`, `mcp-closed`, or why the connection failed.
   */
  readAppResource(uri: string): Promise<McpAppResource>;
  /** Lists the tools again now; resolves to whether they changed. Connects first if needed. */
  refreshTools(): Promise<boolean>;
  /** Closes the connection (stops a stdio server). Calls after it fail with an error result. */
  close(): Promise<void>;
}
