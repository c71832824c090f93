// createToolServer: one MCP server instance whose tools are a session's active tools, every call through dispatch.
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type Tool as McpTool,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { TOOL_SEARCH_NAME } from "../../core/defer/create-tool-search-tool.js";
import type { AgentSession } from "../../core/dispatch/session.js";
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type {
  DispatchOptions,
  ToolCallOutcome,
  ToolDescriptor,
  ToolLogEvent,
  ToolResult,
  TraceContext,
} from "../../core/types.js";
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from "../client/mcp-app.js";
import { answerHeldCall, answersAhead, heldCallStep, readHeldState } from "./answer-held-call.js";
import { approvalInputRequired, approveThroughTask, elicitApproval, readApprovalRetry } from "./approve-over-mcp.js";
import { elicitQuestion, questionThroughTask } from "./ask-over-mcp.js";
import { type HeldCall, heldCallsOf } from "./held-calls.js";
import { type AppResourceReader, serveAppResources } from "./serve-app-resources.js";
import {
  declaresTasks,
  type PrincipalTasks,
  registerTaskMethods,
  TASKS_EXTENSION,
} from "./tasks/serve-task-methods.js";
import type { TaskableCall } from "./tasks/served-tasks.js";
import type { TaskRecord } from "./tasks/task-record.js";
import { taskOnTheWire } from "./tasks/task-record.js";
import { toMcpContent } from "./to-mcp-content.js";

/** What the handshake says about the server. */
export interface ToolServerOptions {
  /** The server's name and version in the handshake. Default `toolwire`. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Instructions sent in the handshake (for example the session's system prompt). */
  readonly instructions?: string;
  /**
   * How long a 2026-07-28 client may keep a `tools/list` page before listing again (its `ttlMs`), in ms; a
   * `list_changed` notification ends it sooner. Default 60 000.
   */
  readonly listTtlMs?: number;
  /**
   * The listing's `cacheScope`: `"public"` when every caller is listed the same tools, `"private"` (kept per
   * authorization context) when they may differ. Default over HTTP: `"private"` when a function makes a session per
   * principal, `"public"` when one session serves everyone; over stdio `"private"`.
   */
  readonly listCacheScope?: "public" | "private";
  /**
   * Reads the MCP App (`ui://` resource) a served tool names in `_meta.ui` (docs/mcp.md#apps). With it the server
   * declares resources and the `io.modelcontextprotocol/ui` extension, lists the served tools' apps in
   * `resources/list` and reads only those; without it, no resources are served.
   */
  readonly readAppResource?: AppResourceReader;
}

/** How long a client may keep a `tools/list` page by default: a minute. */
export const DEFAULT_LIST_TTL_MS = 60_000;

/** One finished `tools/call`, as the gateway's audit log records it. */
export interface ServedCall {
  readonly toolCallId: string;
  readonly tool: string;
  readonly input: unknown;
  /**
   * `"ok"`, the call's error code, `"tool-error"` when the tool itself answered `isError`, `"approval-required"`, or
   * `"task-required"` (a tool of `tasks.require` called by a client that takes no tasks: refused, not run).
   */
  readonly outcome: string;
  readonly durationMs: number;
}

/** Hooks of the server that serves one client or principal. */
export interface ToolServerHooks {
  /**
   * Called once per `tools/call` when it ended (or paused for approval); must not throw. The call is answered once
   * a promise it returns settles (the audit log holds calls up this way while its queue is full).
   */
  readonly onCallEnd?: (call: ServedCall) => void | Promise<void>;
  /**
   * The server's tasks, as this principal's: a 2026-07-28 client that declares the tasks extension gets a task for
   * a call that outlasts `afterMs` or waits for an approval, and `tasks/get`, `tasks/update`, `tasks/cancel`.
   */
  readonly tasks?: PrincipalTasks;
}

/** A low-level MCP `Server` (it serves raw JSON Schema as is) whose tools are the session's active tools. */
export function createToolServer(
  session: AgentSession,
  options: ToolServerOptions,
  hooks: ToolServerHooks = {},
): Server {
  const apps = options.readAppResource !== undefined;
  const extensions = {
    ...(hooks.tasks === undefined ? {} : { [TASKS_EXTENSION]: {} }),
    ...(apps ? { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } : {}),
  };
  const listing = { ttlMs: options.listTtlMs ?? DEFAULT_LIST_TTL_MS, cacheScope: options.listCacheScope ?? "private" };
  const server = new Server(options.serverInfo ?? { name: "toolwire", version: "0.1.0" }, {
    // logging: the SDK answers logging/setLevel and drops messages below the level a client set. Resources are
    // the served tools' apps.
    capabilities: {
      tools: { listChanged: true },
      logging: {},
      ...(apps ? { resources: {} } : {}),
      ...(Object.keys(extensions).length === 0 ? {} : { extensions }),
    },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    // 2026-07-28 listings carry ttlMs and cacheScope; 2025-era answers do not. The apps listed are the listed
    // tools' own, so they keep as long.
    cacheHints: { "tools/list": listing, "resources/list": listing },
  });
  server.setRequestHandler("tools/list", (request) => listPage(session, request.params?.cursor));
  server.setRequestHandler("tools/call", (request, ctx) => callTool(session, server, request.params, ctx, hooks));
  if (hooks.tasks !== undefined) registerTaskMethods(server, hooks.tasks);
  if (options.readAppResource !== undefined) {
    serveAppResources(server, () => servedTools(session).map((tool) => tool.descriptor), options.readAppResource);
  }
  return server;
}

let calls = 0;

/** How many tools one `tools/list` page holds; a larger registry is listed over several pages. */
export const TOOLS_PAGE_SIZE = 200;

/** One page of the active tools; the cursor is the offset of the next page, as opaque text. */
function listPage(session: AgentSession, cursor: unknown): { tools: McpTool[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = typeof cursor === "string" ? Number(Buffer.from(cursor, "base64url").toString("utf8")) : Number.NaN;
    if (!Number.isSafeInteger(decoded) || decoded < 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor for tools/list: ${String(cursor)}`);
    }
    offset = decoded;
  }
  const active = servedTools(session);
  const tools = active.slice(offset, offset + TOOLS_PAGE_SIZE).map((tool) => toMcpTool(tool.descriptor));
  const next = offset + TOOLS_PAGE_SIZE;
  return next < active.length
    ? { tools, nextCursor: Buffer.from(String(next), "utf8").toString("base64url") }
    : { tools };
}

/**
 * The active tools, without the session's own `tool_search` and without code-only tools: a client is listed every
 * tool, deferred ones included, and MCP clients keep their own tool search (docs/deferred-tools.md); code-only tools
 * are reached through run_code (docs/code-mode.md). A call of either by name still runs.
 */
function servedTools(session: AgentSession) {
  const own = session.registry.tools.has(TOOL_SEARCH_NAME) ? undefined : session.activeTools.get(TOOL_SEARCH_NAME);
  const codeOnly = new Set(session.codeOnlyTools);
  return [...session.activeTools.values()].filter((tool) => tool !== own && !codeOnly.has(tool));
}

type CallParams = {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: { progressToken?: unknown };
};

/**
 * One `tools/call` through `session.dispatchDetailed`: refusals and failures are `isError` results (a task whose
 * tool returned something that is not a tool result ends `failed`); a held call's requestState that is unknown or
 * was changed is refused with -32602.
 */
async function callTool(
  session: AgentSession,
  server: Server,
  params: CallParams,
  ctx: ServerContext,
  hooks: ToolServerHooks,
): Promise<CallToolResult> {
  const startedAt = performance.now();
  const id = `mcp-${++calls}-${String(ctx.mcpReq.id)}`;
  const ended = (outcome: string) =>
    hooks.onCallEnd?.({
      toolCallId: id,
      tool: params.name,
      input: params.arguments ?? {},
      outcome,
      durationMs: performance.now() - startedAt,
    });
  const tasks = hooks.tasks;
  const legacy = server.getNegotiatedProtocolVersion()?.startsWith("2025") === true;
  // A tool that runs only as a task (tasks.require) is refused to a request that cannot take one.
  const required = tasks?.served.required(params.name, session.activeTools.get(params.name)?.descriptor) === true;
  if (required && (legacy || !declaresTasks(ctx))) {
    await ended("task-required");
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `Missing required client capability: ${params.name} runs only as a task; declare the ${TASKS_EXTENSION} extension`,
    );
  }
  const state = legacy ? undefined : ctx.mcpReq.requestState();
  const heldState = readHeldState(state);
  if (heldState === "changed") {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `The requestState of this call to ${params.name} was changed; nothing was run.`,
    );
  }
  if (heldState !== undefined) return answerHeldCall(session, params.name, heldState, ctx);
  // A 2026-07-28 client that can answer questions: a question the call asks while it runs (a bridged server's) and
  // before it is a task is asked as input_required, and the call waits here for the retry that answers it.
  const canAsk = !legacy && state === undefined && isRecord(clientCapabilities(server, ctx, legacy)?.elicitation);
  const run = (task?: TaskableCall, held?: HeldCall) => runCall(session, server, params, ctx, id, task, held);
  const answer =
    tasks !== undefined && !legacy && declaresTasks(ctx) && state === undefined
      ? (held?: HeldCall) => answerWithTask(tasks, params.name, required, ctx, run, ended, held)
      : async (held?: HeldCall) => {
          const done = await run(undefined, held);
          await ended(done.outcome);
          return done.result;
        };
  const held = canAsk ? heldCallsOf(session).hold(params.name, answer, answersAhead(ctx)) : undefined;
  return held === undefined ? answer() : heldCallStep(held, ctx.mcpReq.signal);
}

/**
 * For a client that takes tasks: the call is answered when it ends, or with a task once it outlasts afterMs or asks
 * for an approval (whichever comes first; a required one always with its task); a task gets the call's result when
 * it ends.
 */
async function answerWithTask(
  tasks: PrincipalTasks,
  toolName: string,
  required: boolean,
  ctx: ServerContext,
  run: (task: TaskableCall, held?: HeldCall) => Promise<RunCallEnd>,
  ended: (outcome: string) => void | Promise<void>,
  held: HeldCall | undefined,
): Promise<CallToolResult> {
  const call = tasks.served.begin(tasks.principal, toolName, held?.signal ?? ctx.mcpReq.signal, required);
  const running = run(call, held).then(
    async (done) => {
      call.finish(
        done.fault !== undefined ? { error: done.fault } : { result: done.result as Record<string, unknown> },
      );
      await Promise.resolve(ended(done.outcome)).catch(() => undefined);
      return done;
    },
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      call.finish({ error: failure });
      return { error: failure };
    },
  );
  // A store that could not keep the task: the client learns that much, not the store's own error.
  const becameTask = call.becameTask.catch(() => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The call to ${toolName} could not be kept as a task`);
  });
  const first = required
    ? { task: await becameTask }
    : await Promise.race([running, becameTask.then((task) => ({ task }))]);
  if ("task" in first) return taskCreated(first.task);
  if ("error" in first) throw first.error;
  return first.result;
}

/** A call answered with a task (`resultType: "task"`): the task's state, without its details. */
function taskCreated(record: TaskRecord): CallToolResult {
  const { inputRequests: _asked, result: _result, error: _error, ...task } = taskOnTheWire(record);
  return { resultType: "task", ...task } as unknown as CallToolResult;
}

/** The call itself: a fresh dispatch, or the retry of a 2026-07-28 call that paused for approval. */
async function runCall(
  session: AgentSession,
  server: Server,
  params: CallParams,
  ctx: ServerContext,
  id: string,
  task?: TaskableCall,
  held?: HeldCall,
): Promise<RunCallEnd> {
  // Once the call became a task its request is answered: progress and logs have nowhere to go.
  let detached = false;
  void task?.becameTask.then(
    () => {
      detached = true;
    },
    () => undefined,
  );
  const forward = progressForwarder(ctx, params._meta?.progressToken);
  const onUpdate =
    forward === undefined
      ? undefined
      : (partial: ToolResult) => {
          if (!detached) forward(partial);
        };
  // A call that needs approval asks the client that made it, when that client can show a question to its
  // user: a 2025 client through an elicitation request, a 2026-07-28 client through an input_required result.
  const legacy = server.getNegotiatedProtocolVersion()?.startsWith("2025") === true;
  const canAsk = isRecord(clientCapabilities(server, ctx, legacy)?.elicitation);
  const approvals = session.approvals;
  const active = session.activeTools.get(params.name);
  const onLog = (entry: ToolLogEvent) => {
    if (detached) return;
    ctx.mcpReq.log(entry.level, entry.data, entry.logger).catch(() => undefined);
  };
  const traceContext = traceContextOf(params._meta) ?? traceHeaders(ctx.http?.req);
  const dispatchOptions: DispatchOptions = {
    signal: task?.signal ?? held?.signal ?? ctx.mcpReq.signal,
    onLog,
    ...(traceContext === undefined ? {} : { traceContext }),
    ...(onUpdate === undefined ? {} : { onUpdate }),
    ...(legacy && canAsk ? { approver: elicitApproval(ctx) } : {}),
    ...(task !== undefined && canAsk ? { approver: approveThroughTask(task) } : {}),
    // A running call's own questions (a bridged server's elicitation) reach the client the same ways, with their
    // form; a 2026-07-28 client is asked through the held call until the call is a task.
    ...(legacy && canAsk ? { ask: elicitQuestion(ctx) } : {}),
    ...(task !== undefined && canAsk ? { ask: questionThroughTask(task, held?.ask) } : {}),
    ...(task === undefined && held !== undefined ? { ask: held.ask } : {}),
    ...(task === undefined && !legacy && canAsk && approvals !== undefined ? { pauseForApproval: true } : {}),
  };
  const retry = approvalRetryOf(approvals, ctx, legacy, params.name);
  if (retry === "invalid") {
    const text = `The requestState of this call to ${params.name} is not valid (not one this server gave, or changed); it was not run.`;
    return { result: { content: [{ type: "text", text }], isError: true }, outcome: "approval-state-invalid" };
  }
  let outcome: ToolCallOutcome;
  if (retry !== undefined && approvals !== undefined) {
    try {
      [outcome] = (await approvals.resume([retry], dispatchOptions)) as [ToolCallOutcome];
    } catch (error) {
      const text = `${describeThrown(error)} It was not run again.`;
      const code = (error as { code?: unknown }).code;
      return {
        result: { content: [{ type: "text", text }], isError: true },
        outcome: typeof code === "string" ? code : "approval-state-invalid",
      };
    }
  } else {
    outcome = await session.dispatchDetailed({ id, name: params.name, input: params.arguments ?? {} }, dispatchOptions);
  }
  if (outcome.pendingApproval !== undefined && approvals !== undefined) {
    const result = approvalInputRequired(approvals, outcome.pendingApproval) as unknown as CallToolResult;
    return { result, outcome: "approval-required" };
  }
  const result = server.projectCallToolResult(toCallToolResult(outcome), active?.descriptor.outputSchema);
  return { result, outcome: outcomeCode(outcome), ...faultOf(outcome) };
}

/**
 * A fault of the server rather than of the tool's work (its executor returned something that is not a tool result):
 * a task reports it as MCP's tasks want, `failed` with the JSON-RPC error; a blocking answer keeps the `isError`
 * result, which a client shows its model.
 */
function faultOf(outcome: ToolCallOutcome): { readonly fault?: ProtocolError } {
  if (outcome.errorCode !== "invalid-result") return {};
  const message = outcome.block.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  return { fault: new ProtocolError(ProtocolErrorCode.InternalError, message) };
}

/**
 * The approval a 2026-07-28 retry answers (its requestState, sealed by the session's approvals), or `"invalid"` for a
 * requestState this server did not seal or that was changed since: that call does not run.
 */
function approvalRetryOf(
  approvals: AgentSession["approvals"],
  ctx: ServerContext,
  legacy: boolean,
  toolName: string,
): ReturnType<typeof readApprovalRetry> {
  if (legacy || ctx.mcpReq.requestState() === undefined) return undefined;
  return approvals === undefined ? "invalid" : readApprovalRetry(approvals, ctx, toolName);
}

/**
 * How a call ended: its result (an error result too), its outcome for the audit log, and the protocol error a task
 * ends with instead when the fault was the server's.
 */
interface RunCallEnd {
  readonly result: CallToolResult;
  readonly outcome: string;
  readonly fault?: ProtocolError;
}

/**
 * What the client that made this request declared it can do: a 2025 client once, in `initialize`; a 2026-07-28
 * client on every request, in its `_meta` (which the SDK lifts into `ctx.mcpReq.envelope`). The server's own
 * `getClientCapabilities()` knows the latter only over HTTP, where each request gets its own server instance.
 */
function clientCapabilities(server: Server, ctx: ServerContext, legacy: boolean): Record<string, unknown> | undefined {
  const declared = legacy
    ? server.getClientCapabilities()
    : (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return isRecord(declared) ? declared : undefined;
}

/** The client's trace context from a request's `_meta` (W3C `traceparent`, `tracestate`), when it sent one. */
function traceContextOf(meta: unknown): TraceContext | undefined {
  if (!isRecord(meta) || typeof meta.traceparent !== "string") return undefined;
  const { traceparent, tracestate } = meta;
  return typeof tracestate === "string" ? { traceparent, tracestate } : { traceparent };
}

/** An HTTP request's W3C trace headers, for clients that send the trace context there instead of in `_meta`. */
function traceHeaders(request: Request | undefined): TraceContext | undefined {
  const traceparent = request?.headers.get("traceparent");
  if (traceparent === null || traceparent === undefined) return undefined;
  const tracestate = request?.headers.get("tracestate");
  return tracestate === null || tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/** `"ok"`, or why the call failed: its error code, or `"tool-error"` when the tool answered with an error. */
function outcomeCode(outcome: ToolCallOutcome): string {
  if (outcome.errorCode !== undefined) return outcome.errorCode;
  return outcome.block.is_error === true ? "tool-error" : "ok";
}

/** `onUpdate` partials as progress notifications, when the client sent a progress token. */
function progressForwarder(ctx: ServerContext, progressToken: unknown): ((partial: ToolResult) => void) | undefined {
  if (typeof progressToken !== "string" && typeof progressToken !== "number") return undefined;
  let progress = 0;
  return (partial) => {
    const message = partial.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
    void ctx.mcpReq
      .notify({
        method: "notifications/progress",
        params: { progressToken, progress: ++progress, ...(message.length > 0 ? { message: message.join("\n") } : {}) },
      })
      .catch(() => undefined);
  };
}

/**
 * A call's outcome as an MCP result: its content blocks, `isError`, and `details.structuredContent` when it succeeded.
 */
function toCallToolResult({ block, result: final }: ToolCallOutcome): CallToolResult {
  const result: CallToolResult = { content: toMcpContent(block.content) };
  if (block.is_error === true) result.isError = true;
  const structured = structuredContentOf(final.details);
  if (structured !== undefined && block.is_error !== true) result.structuredContent = structured;
  return result;
}

/**
 * A descriptor as an MCP tool: name, title, description, inputSchema and outputSchema (unchanged), annotations, icons,
 * _meta.
 */
function toMcpTool(descriptor: ToolDescriptor): McpTool {
  const tool: Record<string, unknown> = {
    name: descriptor.name,
    description: descriptor.description,
    inputSchema: descriptor.inputSchema,
  };
  if (descriptor.outputSchema !== undefined) tool.outputSchema = descriptor.outputSchema;
  if (descriptor.title !== undefined) tool.title = descriptor.title;
  if (descriptor.annotations !== undefined) tool.annotations = descriptor.annotations;
  if (descriptor.icons !== undefined) tool.icons = descriptor.icons;
  if (descriptor._meta !== undefined) tool._meta = descriptor._meta;
  return tool as McpTool;
}

function structuredContentOf(details: unknown): Record<string, unknown> | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const structured = (details as { structuredContent?: unknown }).structuredContent;
  return typeof structured === "object" && structured !== null && !Array.isArray(structured)
    ? (structured as Record<string, unknown>)
    : undefined;
}
