// Why a bridged call failed, from what the SDK threw: the error result the model reads, and whether the connection is
// gone.
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { ToolCallError } from "../../core/errors.js";
import { McpConnectionError } from "./errors.js";
import { authorizationFailure } from "./oauth/bridge-auth.js";

/** What the bridge knows of a call when its request failed. */
export interface FailedCall {
  readonly serverId: string;
  /** The bridged tool's name (`<server>__<tool>`) and the server's own. */
  readonly name: string;
  readonly toolName: string;
  readonly timeoutMs: number;
  /** The connection was closed by `close()`. */
  readonly closed: boolean;
  /** The connection was lost before or during the call, and why. */
  readonly lost: McpConnectionError | undefined;
  /** The call's own signal aborted. */
  readonly aborted: boolean;
  /** An authorization was configured, so a 401 is a login to redo rather than a missing one. */
  readonly authorized: boolean;
}

/**
 * The call's error, in this order: closed, lost, aborted, timeout, a JSON-RPC error from the server,
 * an authorization failure, a malformed result; anything else is a transport that failed, and comes
 * with `lost` (the connection must be dropped; the next call reconnects).
 */
export function classifyCallError(
  call: FailedCall,
  error: unknown,
): { readonly error: ToolCallError; readonly lost?: McpConnectionError } {
  const { serverId, name, toolName } = call;
  const reconnectHint = `The tool is still there: calling it again starts a new connection to ${serverId}.`;
  if (call.closed) {
    const message = `MCP server ${serverId} was closed during the call to ${toolName}`;
    return { error: new ToolCallError("execution-failed", name, message, { cause: error }) };
  }
  if (call.lost !== undefined) {
    const message = `${call.lost.message}, during the call to ${toolName}. ${reconnectHint}`;
    return { error: new ToolCallError("execution-failed", name, message, { cause: call.lost }) };
  }
  if (call.aborted) {
    const message = `The call to ${toolName} on MCP server ${serverId} was aborted`;
    return { error: new ToolCallError("aborted", name, message, { cause: error }) };
  }
  if (isTimeout(error)) {
    const message = `MCP server ${serverId} did not answer the call to ${toolName} within ${call.timeoutMs} ms and sent no progress. Try again later or with a smaller request.`;
    const cause = new McpConnectionError("mcp-timeout", serverId, (error as Error).message, { cause: error });
    return { error: new ToolCallError("timeout", name, message, { cause }) };
  }
  if (error instanceof ProtocolError) {
    // The server answered with a JSON-RPC error (an unknown tool, bad params) instead of an isError result.
    const message = `MCP server ${serverId} refused the call to ${toolName}: ${error.message} (MCP error ${error.code})`;
    const cause = new McpConnectionError("mcp-protocol-error", serverId, error.message, { cause: error });
    return { error: new ToolCallError("execution-failed", name, message, { cause }) };
  }
  const unauthorized = authorizationFailure(serverId, error, call.authorized);
  if (unauthorized !== undefined) {
    // The connection is fine; the server wants another authorization for this call.
    const message = `${unauthorized.message} (during the call to ${toolName})`;
    return { error: new ToolCallError("execution-failed", name, message, { cause: unauthorized }) };
  }
  if (isSchemaError(error)) {
    const message = `MCP server ${serverId} sent a malformed result for ${toolName}: ${messageOf(error)}. This is a fault of the server, not of your call.`;
    const cause = new McpConnectionError("mcp-protocol-error", serverId, messageOf(error), { cause: error });
    return { error: new ToolCallError("execution-failed", name, message, { cause }) };
  }
  // The transport failed (an HTTP server that went away, a broken pipe): the connection is gone.
  const lost = new McpConnectionError(
    "mcp-server-exited",
    serverId,
    `MCP server ${serverId} could not be reached (${messageOf(error)})`,
    { cause: error },
  );
  const message = `${lost.message}, during the call to ${toolName}. ${reconnectHint}`;
  return { error: new ToolCallError("execution-failed", name, message, { cause: lost }), lost };
}

/** Whether the SDK gave up waiting for an answer. */
export function isTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

function isSchemaError(error: unknown): boolean {
  return (
    (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) ||
    (error instanceof Error && /ZodError/.test(error.name))
  );
}

/** An error's message, with its cause's when it has one ("fetch failed" alone says little). */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== "" && !error.message.includes(cause.message)) {
    return `${error.message}: ${cause.message}`;
  }
  return error.message;
}
