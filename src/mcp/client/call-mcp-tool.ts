// callMcpTool: one call of a bridged tool, on the current connection or a new one made for it, its failure classified.
import { ProtocolError } from "@modelcontextprotocol/client";
import { ToolCallError } from "../../core/errors.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolResult } from "../../core/types.js";
import { type BridgedTool, bridgedResult, progressUpdate } from "./bridge-mcp-tool.js";
import { classifyCallError, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { CALL_RESULT_AS_SENT, type CallResultAsSent } from "./lenient-results.js";
import { buildMcpParamHeaders, type McpParamHeader } from "./mcp-param-headers.js";
import type { OpenMcpClient } from "./open-mcp-client.js";

/** The JSON-RPC code of a request whose HTTP headers disagree with its body (`HeaderMismatch`, 2026-07-28). */
const HEADER_MISMATCH = -32020;

/** What a call needs of its connection; `connectMcpEndpoint` makes one per connection. */
export interface McpCallHost {
  readonly serverId: string;
  /** Per request, reset by every progress notification. */
  readonly timeoutMs: number;
  /** An authorization is configured, so a 401 is a login to redo rather than a missing one. */
  readonly authorized: boolean;
  /** The calls running now: the server's log messages go to their contexts. */
  readonly running: Set<ToolCallContext>;
  /** The open connection, or `undefined` when there is none now. */
  current(): OpenMcpClient | undefined;
  /** Whether `close()` was called. */
  closed(): boolean;
  /** The connect under way, or a new one (after the backoff delay); rejects when it fails or the source is closed. */
  connect(): Promise<OpenMcpClient>;
  /** A call was answered: the count of failed connects starts again. */
  succeeded(): void;
  /** A call found the connection gone: it is dropped, and the next call reconnects. */
  lost(live: OpenMcpClient, reason: McpConnectionError): void;
  /**
   * Lists the tools again now (whatever the listing's ttlMs); resolves to the tool of that server name when the
   * listing changed it, else `undefined`.
   */
  relistFor(toolName: string): Promise<AgentTool | undefined>;
  /** The calls already made once more after a header mismatch (one retry each). */
  readonly retried: WeakSet<ToolCallContext>;
}

/**
 * Calls `bridged` with `input`: `tools/call` on the host's connection (a new one when there is none), with the
 * call's abort, progress as `context.onUpdate` partials, and a client span with its trace context in `_meta` when
 * the context carries a span, and an `Mcp-Param-*` header for each of `paramHeaders` that has a value in `input`
 * (over HTTP). Resolves to the server's answer as a tool result (`bridgedResult`); a failure throws
 * a `ToolCallError` that says what happened (`classifyCallError`), and a transport that failed drops the connection.
 */
export async function callMcpTool(
  host: McpCallHost,
  bridged: BridgedTool,
  input: JsonObject,
  context: ToolCallContext,
  paramHeaders: readonly McpParamHeader[] = [],
): Promise<ToolResult> {
  const live = host.current() ?? (await acquire(host, bridged.name, context.signal));
  // A plain AbortController that the call's abort reaches through `onAbort`, when the context offers it: the
  // context's own `signal` is made on first read and guards its listeners (a throw must not end the process),
  // several µs more per call in Node 20.
  const relay = typeof context.onAbort === "function" ? new AbortController() : undefined;
  const signal = relay?.signal ?? context.signal;
  const stopRelaying = relay === undefined ? undefined : context.onAbort?.((reason) => relay.abort(reason));
  host.running.add(context);
  const { serverId } = host;
  // With telemetry: a client span for the request, and its trace context in `_meta` for the server to continue.
  const span = context.span?.startChild(`tools/call ${bridged.toolName}`, {
    kind: "client",
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": bridged.toolName,
      "toolwire.mcp.server": serverId,
    },
  });
  const params = { name: bridged.toolName, arguments: input as Record<string, unknown> };
  let result: CallResultAsSent;
  try {
    result = await live.client.request(
      {
        method: "tools/call",
        params: span === undefined ? params : { ...params, _meta: { ...span.traceContext() } },
      },
      CALL_RESULT_AS_SENT,
      {
        signal,
        timeout: host.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: (progress) => context.onUpdate(progressUpdate(progress)),
        ...(paramHeaders.length === 0 ? {} : { headers: buildMcpParamHeaders(paramHeaders, input) }),
      },
    );
  } catch (error) {
    // The server says the Mcp-Param-* headers do not fit the tool: its declarations may have changed since the
    // listing, so the tools are listed again and the call is made once more by the tool as now listed.
    if (error instanceof ProtocolError && error.code === HEADER_MISMATCH && !host.retried.has(context)) {
      host.retried.add(context);
      const fresh = signal.aborted ? undefined : await host.relistFor(bridged.toolName).catch(() => undefined);
      if (fresh !== undefined) {
        span?.end("header-mismatch");
        return (await fresh.execute(input, context)) as ToolResult;
      }
    }
    const failure = callError(host, live, bridged, error, signal.aborted);
    span?.end(failure.code);
    throw failure;
  } finally {
    stopRelaying?.();
    host.running.delete(context);
  }
  span?.end(result.isError === true ? "tool-error" : undefined);
  host.succeeded();
  return bridgedResult(bridged, result);
}

function callError(
  host: McpCallHost,
  live: OpenMcpClient,
  bridged: BridgedTool,
  error: unknown,
  aborted: boolean,
): ToolCallError {
  const failure = classifyCallError(
    {
      serverId: host.serverId,
      name: bridged.name,
      toolName: bridged.toolName,
      timeoutMs: host.timeoutMs,
      closed: host.closed(),
      lost: live.lost,
      aborted,
      authorized: host.authorized,
    },
    error,
  );
  if (failure.lost !== undefined) host.lost(live, failure.lost);
  return failure.error;
}

/** A new connection (after the backoff delay) for a call made while there is none. */
async function acquire(host: McpCallHost, name: string, signal: AbortSignal): Promise<OpenMcpClient> {
  const { serverId } = host;
  if (host.closed()) {
    throw new ToolCallError("execution-failed", name, `MCP server ${serverId} is closed: its connection was shut down`);
  }
  try {
    return await raceAbort(host.connect(), signal);
  } catch (error) {
    if (signal.aborted)
      throw new ToolCallError(
        "aborted",
        name,
        `The call to ${name} was aborted while reconnecting to MCP server ${serverId}`,
      );
    const reason = error instanceof McpConnectionError ? error.message : messageOf(error);
    // Closed meanwhile (the await above may have seen close()): no later call will try again.
    const next = host.closed() ? "the connection is closed" : "a later call will try again";
    throw new ToolCallError(
      "execution-failed",
      name,
      `${reason}. Reconnecting to MCP server ${serverId} failed; ${next}.`,
      { cause: error },
    );
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
