// callMcpTool: one call of a bridged tool, on the current connection or a new one made for it, its questions answered,
// its task followed, its failure classified.
import { ProtocolError, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import { ToolCallError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolResult } from "../../core/types.js";
import type { McpElicitationHandler } from "./answer-elicitation.js";
import { answerInputRequests, type InputAsker } from "./answer-input-requests.js";
import { askThroughContext } from "./ask-through-context.js";
import { type BridgedTool, bridgedResult, progressUpdate } from "./bridge-mcp-tool.js";
import { classifyCallError, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { followMcpTask } from "./follow-mcp-task.js";
import { CALL_RESULT_AS_SENT, type CallResultAsSent } from "./lenient-results.js";
import { buildMcpParamHeaders, type McpParamHeader } from "./mcp-param-headers.js";
import type { OpenMcpClient } from "./open-mcp-client.js";
import { taskOf } from "./task-results.js";

/** How many input_required answers one call may take before the bridge gives up on it. */
const MAX_INPUT_ROUNDS = 10;

/** The JSON-RPC code of a request whose HTTP headers disagree with its body (`HeaderMismatch`, 2026-07-28). */
const HEADER_MISMATCH = -32020;

/** What a call needs of its connection; `connectMcpEndpoint` makes one per connection. */
export interface McpCallHost {
  readonly serverId: string;
  /** Per request, reset by every progress notification. */
  readonly timeoutMs: number;
  /** An authorization is configured, so a 401 is a login to redo rather than a missing one. */
  readonly authorized: boolean;
  /** The calls running now, with their bridged tools' names: the server's log messages go to their contexts. */
  readonly running: Map<ToolCallContext, string>;
  /** Answers a server's questions (`onElicitation`); `undefined` when nobody can. */
  readonly elicit: McpElicitationHandler | undefined;
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
 * (over HTTP); the server's questions (input_required) are answered and its task followed to its end
 * (`requestCall`). Resolves to the server's answer as a tool result (`bridgedResult`); a failure throws
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
  host.running.set(context, bridged.name);
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
    const asker: InputAsker = {
      // The connection's own handler first, else the call's caller (the serving client, or an approver).
      handler: host.elicit ?? askThroughContext(context),
      serverId,
      name: bridged.name,
      toolName: bridged.toolName,
      toolCallId: context.toolCallId,
      signal,
    };
    const headers = paramHeaders.length === 0 ? undefined : buildMcpParamHeaders(paramHeaders, input);
    result = await requestCall(
      live,
      span === undefined ? params : { ...params, _meta: { ...span.traceContext() } },
      { timeoutMs: host.timeoutMs, headers },
      asker,
      context,
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
    // An abort wins over what it caused (a question left unanswered, a poll cut short).
    const failure =
      error instanceof ToolCallError && !signal.aborted ? error : callError(host, live, bridged, error, signal.aborted);
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

/**
 * `tools/call` until the server answers it: an input_required answer (2026-07-28) is answered through `asker` and the
 * call sent again with the responses and the server's requestState, as it was; a task is followed to its end. Throws a
 * `ToolCallError` when a question cannot be answered or the task fails, and what the SDK threw when a request fails.
 */
async function requestCall(
  live: OpenMcpClient,
  params: Record<string, unknown>,
  sending: { readonly timeoutMs: number; readonly headers: Record<string, string> | undefined },
  asker: InputAsker,
  context: ToolCallContext,
): Promise<CallResultAsSent> {
  const { timeoutMs, headers } = sending;
  const onUpdate = context.onUpdate;
  let sent = params;
  for (let round = 0; ; round++) {
    const answer: CallResultAsSent & { readonly [field: string]: unknown } = await live.client.request(
      { method: "tools/call", params: sent },
      CALL_RESULT_AS_SENT as StandardSchemaV1<unknown, CallResultAsSent & { readonly [field: string]: unknown }>,
      {
        signal: asker.signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        allowInputRequired: true,
        onprogress: (progress) => onUpdate(progressUpdate(progress)),
        ...(headers === undefined ? {} : { headers }),
      },
    );
    const task = taskOf(answer);
    if (task !== undefined) return followMcpTask(task, { live, timeoutMs, asker, onUpdate });
    if (answer.resultType !== "input_required") return answer;
    if (round >= MAX_INPUT_ROUNDS) {
      const message = `MCP server ${asker.serverId} still asked for input after ${MAX_INPUT_ROUNDS} answers to the call to ${asker.toolName}. The call did not complete.`;
      throw new ToolCallError("execution-failed", asker.name, message);
    }
    const requests = isRecord(answer.inputRequests) ? answer.inputRequests : {};
    const answered = await answerInputRequests(requests, asker);
    if ("error" in answered) throw answered.error;
    const { requestState } = answer;
    sent = {
      ...params,
      ...(Object.keys(answered.responses).length > 0 ? { inputResponses: answered.responses } : {}),
      ...(typeof requestState === "string" ? { requestState } : {}),
    };
  }
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
