// McpConnectionError: why an MCP server could not be reached or used, with a stable kebab-case code.
import { ToolwireError } from "../../core/errors.js";

/**
 * Why a bridged MCP server failed. One line each:
 * - `invalid-mcp-config`: the server config is malformed (no id, no command or url, bad filters).
 * - `mcp-connect-failed`: the server could not be started or did not complete the handshake.
 * - `mcp-server-exited`: the server process exited or the connection closed.
 * - `mcp-timeout`: the server did not answer within the timeout.
 * - `mcp-protocol-error`: the server broke the protocol (not JSON-RPC on stdout, a malformed answer, an error reply).
 * - `mcp-closed`: the connection was closed by its owner.
 * - `mcp-listener-failed`: an `onChange` listener threw (the other listeners still ran).
 * - `mcp-task-failed`: a task the server ran a call as (io.modelcontextprotocol/tasks) failed or was cancelled by
 *   the server.
 * - `mcp-unauthorized`: the server requires an authorization that could not be had (no `auth`, a login that
 *   timed out or was refused, a scope the server keeps asking for); the cause says which.
 * - `mcp-tool-skipped`: a listed tool was left out (`connection.skipped` says why); reported through `onError`,
 *   the other tools are bridged.
 * - `mcp-app-invalid-uri`: `readAppResource` was given a URI that is not a `ui://` one.
 * - `mcp-app-not-found`: the server has no resource at an app's `ui://` URI (or serves no resources).
 * - `mcp-app-not-html`: an app's resource is not HTML text (`text/html;profile=mcp-app`).
 */
export type McpErrorCode =
  | "invalid-mcp-config"
  | "mcp-connect-failed"
  | "mcp-server-exited"
  | "mcp-timeout"
  | "mcp-protocol-error"
  | "mcp-closed"
  | "mcp-listener-failed"
  | "mcp-unauthorized"
  | "mcp-task-failed"
  | "mcp-tool-skipped"
  | "mcp-app-invalid-uri"
  | "mcp-app-not-found"
  | "mcp-app-not-html";

/** A fault of one MCP server; the message names the server id and what happened. */
export class McpConnectionError extends ToolwireError<McpErrorCode> {
  override readonly name = "McpConnectionError";
  constructor(
    code: McpErrorCode,
    readonly serverId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
