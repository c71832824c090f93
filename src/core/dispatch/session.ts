// The agent session: the model's view of the registry (model-view.ts) and dispatch of the model's tool calls (call.ts).
import { type Approvals, createApprovals } from "../approve/approvals.js";
import type { StateSeal } from "../approve/state-seal.js";
import { ApprovalError, describeThrown, SessionError } from "../errors.js";
import { createFlow, type Flow } from "../flow/create-flow.js";
import { isRecord } from "../json.js";
import { isResultLimit } from "../register/define-tool.js";
import type { SessionTelemetryOptions } from "../types/telemetry.js";
import type {
  AfterToolCall,
  AgentSessionEvents,
  AgentTool,
  ApprovalOptions,
  ApprovalRequest,
  ApprovalResumption,
  BeforeToolCall,
  DispatchOptions,
  FlowOptions,
  JsonObject,
  SessionFlow,
  ToolCallOutcome,
  ToolDefinitionChange,
  ToolDescriptor,
  ToolExecutionMode,
  ToolRegistry,
  ToolResultBlock,
  ToolUse,
  TraceContext,
  WriteLock,
} from "../types.js";
import { createWriteLock } from "../wrap/write-lock.js";
import { type Call, type CallRuntime, resumeCall, resumeSuspendedCall, runCall } from "./call.js";
import type { CallTelemetry } from "./call-watch.js";
import { createSessionEmitter } from "./events.js";
import { createModelView } from "./model-view.js";
import { closeResultBudget, createResultBudget } from "./result-budget.js";
import { completeCalls, completeCallsInSequence, runCalls } from "./run-calls.js";
import { createValidatorCache, type InputValidatorFactory } from "./validate.js";

/** Everything `createAgentSession` takes. */
export interface AgentSessionOptions {
  readonly registry: ToolRegistry;
  readonly beforeToolCall?: readonly BeforeToolCall[];
  readonly afterToolCall?: readonly AfterToolCall[];
  /** Default: a FIFO promise-chain lock private to the session. */
  readonly writeLock?: WriteLock;
  /** Default `"parallel"`. */
  readonly toolExecution?: ToolExecutionMode;
  /**
   * Per call, from the executor's start; a tool's own `timeoutMs` wins. Default
   * `DEFAULT_TOOL_TIMEOUT_MS` (5 minutes), so that every call ends; `Infinity` turns it off.
   */
  readonly toolTimeoutMs?: number;
  /** How long one async hook may take before it counts as failed. Default 30 000 ms. */
  readonly hookTimeoutMs?: number;
  readonly systemPrompt?: string;
  /** Calls that need a person's approval before they run, and who approves them. Default: none. */
  readonly approvals?: ApprovalOptions;
  /** Compiles a validator per schema. The root export supplies ajv; the core needs one injected. */
  readonly validator?: InputValidatorFactory;
  /** Also close the registry when the session is closed: for a registry made for this session alone. Default false. */
  readonly closeRegistry?: boolean;
  /**
   * The most characters of text a result may hold before it is saved whole to a file and the model gets a
   * preview of its head and tail with the file's path (a tool's own `maxResultChars` wins). Default
   * `DEFAULT_MAX_RESULT_CHARS` (50 000); `Infinity` turns it off.
   */
  readonly maxResultChars?: number;
  /**
   * The most bytes the results saved in one folder may take: the workspace's `.toolwire/results/` (counted with
   * every session of the process on it, and the files already there), or the session's temporary folder. A
   * result that would pass it is not saved, and the model gets the preview alone. Default
   * `DEFAULT_MAX_SPILL_BYTES` (1 GiB); `Infinity` turns it off.
   */
  readonly maxSpillBytes?: number;
  /**
   * The workspace: results over the budget are saved under its `.toolwire/results/` (as `<tool call id>.txt`),
   * where the built-in `read` can open them, and stay there. Default: a temporary folder made on the first large
   * result, removed by `close()` or when the process exits.
   */
  readonly workspace?: string;
  /**
   * OpenTelemetry spans for every call (docs/telemetry.md): `true` for the global tracer and meter of
   * `@opentelemetry/api` (an optional peer dependency), or your own tracer and meter. Default: none.
   */
  readonly telemetry?: boolean | SessionTelemetryOptions;
  /**
   * Flow rules (docs/security.md): while untrusted content is in the session, guarded calls need a person's approval
   * or are refused; `policy` judges every call. Default: none (the taint is still tracked in `session.flow`).
   */
  readonly flow?: FlowOptions;
}

/**
 * The core session's options: the public ones, and how `telemetry` is made (the root export supplies OpenTelemetry).
 */
interface CoreSessionOptions extends AgentSessionOptions {
  readonly createTelemetry?: (options: SessionTelemetryOptions) => CallTelemetry;
}

/** A session over a registry. `dispatch` and `dispatchAll` never reject. */
export interface AgentSession {
  readonly registry: ToolRegistry;
  /**
   * The active tools, in order: the tools a call may name. While any of them is deferred, the session's own
   * `tool_search` comes last (unless the registry has a tool of that name).
   */
  readonly activeTools: ReadonlyMap<string, AgentTool>;
  readonly activeToolNames: readonly string[];
  /**
   * The tools to send the model now (docs/deferred-tools.md): the active tools that are not deferred (nor code-only,
   * `codeOnlyTools`), in active order,
   * then `tool_search` while any active tool is deferred, then the deferred tools searches found, in the order found.
   * A search appends to it, so what was sent before keeps its bytes; it changes otherwise only when the active
   * set or the registry's deferral does. Without deferred tools it is every active tool.
   */
  readonly modelTools: readonly AgentTool[];
  /**
   * The active tools that are deferred, in active order (the registry's `deferred`, narrowed to the active set),
   * found or not: the same array until they change.
   */
  readonly deferredTools: readonly AgentTool[];
  /** The names of `deferredTools`. */
  readonly deferredToolNames: readonly string[];
  /**
   * The active tools reachable only through code (the registry's `codeOnly`), in active order: callable by name, but
   * not in `modelTools`, the system prompt or `tool_search`. Code mode exposes them to programs. The same array until
   * they change.
   */
  readonly codeOnlyTools: readonly AgentTool[];
  /** The deferred tools that joined `modelTools` (found by `tool_search` or given to `loadDeferredTools`), in order. */
  readonly loadedToolNames: readonly string[];
  /**
   * Adds deferred tools to the end of `modelTools`, as `tool_search` does for the tools it finds (a loop resuming a
   * transcript gives the ones found before). Names that are not active deferred tools, or were loaded already, are
   * skipped. Returns the names added, in order. Never throws.
   */
  loadDeferredTools(names: Iterable<string>): string[];
  /**
   * The base prompt plus a section listing the tools sent up front (docs/core.md): the active tools that are
   * not deferred nor code-only, and `tool_search` while some are deferred.
   */
  readonly systemPrompt: string;
  /** The prompt as the session was given it, without the tool section (what `runAgent` sends by default). */
  readonly baseSystemPrompt: string;
  /**
   * Takes the names that exist in the registry, in order; returns them and the missing ones. Never throws.
   * `tool_search` (the session's own) is not a registry name: naming it is skipped without being missing.
   */
  setActiveToolsByName(names: Iterable<string>): { active: string[]; missing: string[] };
  /** Makes every registry tool active again, including ones later refreshes add. */
  activateAllTools(): void;
  dispatch(toolUse: ToolUse, options?: DispatchOptions): Promise<ToolResultBlock>;
  dispatchAll(toolUses: readonly ToolUse[], options?: DispatchOptions): Promise<ToolResultBlock[]>;
  /**
   * `dispatch`, answered with the call's whole outcome: the same block, the result with its `details`,
   * the error code and the duration. Never rejects.
   */
  dispatchDetailed(toolUse: ToolUse, options?: DispatchOptions): Promise<ToolCallOutcome>;
  /** `dispatchAll`, answered with each call's whole outcome, in the calls' order. Never rejects. */
  dispatchAllDetailed(toolUses: readonly ToolUse[], options?: DispatchOptions): Promise<ToolCallOutcome[]>;
  on<K extends keyof AgentSessionEvents>(event: K, listener: (event: AgentSessionEvents[K]) => void): () => void;
  /** Called when the active set changes (a refresh or `setActiveToolsByName`); returns an unsubscribe function. */
  onActiveToolsChange(listener: (names: readonly string[]) => void): () => void;
  /**
   * Accepts the definition an MCP server now lists for a tool hidden with `definition-changed` (docs/pins.md): pins
   * it in the registry's pin store and shows the tool again. Returns the change accepted; throws `ToolPinError`
   * `definition-not-pending` for a name that is not hidden so.
   */
  acceptToolDefinition(name: string): ToolDefinitionChange;
  /** Stops following the registry's refreshes, and removes the temporary folder of saved results, if one was made. */
  close(): void;
  /**
   * Calls paused for approval, and the seal of paused runs' states; `undefined` without `approvals` and without
   * `flow` (flow rules ask for approvals themselves).
   */
  readonly approvals: SessionApprovals | undefined;
  /**
   * Whether untrusted content is in the session, and which calls brought it (docs/security.md). Tracked with or
   * without `flow`; only `flow` makes guarded calls meet it.
   */
  readonly flow: SessionFlow;
}

/** What a session offers a loop that pauses for approval (`runAgent`, `resumeAgent`, your own). */
export interface SessionApprovals {
  /**
   * Whether the session's `approvals.require` asks a person's approval for this call, judged as the approval
   * phase judges it (there: on the input the before hooks left), or flow rules do now (a guarded tool while the
   * session is tainted, under `whenTainted: "approve"`). For loops that ask a person themselves before they
   * dispatch, such as the AI SDK's and the OpenAI Agents SDK's approvals. Never asks anyone.
   */
  requires(call: {
    readonly toolName: string;
    readonly input: JsonObject;
    readonly descriptor: ToolDescriptor;
  }): boolean;
  /** Signs and checks run states with `approvals.secret` (HMAC-SHA256 over RFC 8785 canonical JSON). */
  readonly seal: StateSeal;
  /**
   * Runs calls paused for approval (`pauseForApproval`), each with its decision. First claims every
   * approval id in the store, in order, and rejects with `ApprovalError` `approval-used` at the first
   * already decided, before anything runs. Then each call ends as its decision says: declined or expired
   * with their error results, approved with exactly the request's input, through the after hooks. The
   * calls run together as a batch does (or one by one in a sequential session); outcomes in their order.
   * An entry with `continuation` (a call its executor paused for a nested call) runs its `parent` again
   * instead, with `context.resumption`: that call may end, or pause again with a new request.
   */
  resume(resumptions: readonly ApprovalResumption[], options?: DispatchOptions): Promise<ToolCallOutcome[]>;
}

/** How long a call's executor may run when neither the tool nor the session says: 5 minutes. */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;

const ALLOW_ALL_VALIDATOR: InputValidatorFactory = () => () => undefined;

/** Creates a session. Until `setActiveToolsByName`, every registry tool is active. */
export function createAgentSession(options: CoreSessionOptions): AgentSession {
  const { registry } = options;
  const toolTimeoutMs = checkSessionOptions(options);
  const emitter = createSessionEmitter();
  const baseSystemPrompt = options.systemPrompt ?? "";
  const view = createModelView({
    registry,
    baseSystemPrompt,
    validatorFor: createValidatorCache(options.validator ?? ALLOW_ALL_VALIDATOR),
    emitter,
  });
  const unsubscribeRefreshError = registry.onRefreshError((error) =>
    emitter.emit("error", {
      code: "refresh-failed",
      error: new SessionError("refresh-failed", `A registry refresh failed: ${error.message}`, { cause: error }),
    }),
  );
  const flow = createFlow(options.flow);
  // Enforced flow rules ask a person themselves, through the session's approvals even when none are required.
  const approvalOptions = options.approvals ?? (flow.enforced ? { require: [] } : undefined);
  const approvals = approvalOptions === undefined ? undefined : createApprovals(approvalOptions);
  const runtime: CallRuntime = {
    approvals,
    flow,
    activeTools: () => view.activeTools,
    hiddenBecause: (name) => registry.hidden.find((entry) => entry.descriptor.name === name)?.diagnostics,
    callable: (name) => view.callable(name),
    beforeHooks: [...(options.beforeToolCall ?? [])],
    afterHooks: [...(options.afterToolCall ?? [])],
    lock: options.writeLock ?? createWriteLock(),
    toolTimeoutMs,
    hookTimeoutMs: options.hookTimeoutMs ?? 30_000,
    emitter,
    budget: createResultBudget(options.maxResultChars, options.workspace, options.maxSpillBytes),
    telemetry: sessionTelemetry(options),
  };
  const sequential = options.toolExecution === "sequential";

  return {
    registry,
    get activeTools() {
      return view.activeTools;
    },
    get activeToolNames() {
      return view.activeToolNames;
    },
    get modelTools() {
      return view.modelTools;
    },
    get deferredTools() {
      return view.deferredTools;
    },
    get deferredToolNames() {
      return view.deferredTools.map((tool) => tool.descriptor.name);
    },
    get codeOnlyTools() {
      return view.codeOnlyTools;
    },
    get loadedToolNames() {
      return [...view.loadedToolNames];
    },
    loadDeferredTools: (names) => view.loadDeferredTools(names),
    baseSystemPrompt,
    get systemPrompt() {
      return view.systemPrompt;
    },
    setActiveToolsByName: (names) => view.setActiveToolsByName(names),
    activateAllTools: () => view.activateAllTools(),
    dispatch: async (toolUse, dispatchOptions) => (await runCall(runtime, toolUse, blocksOnly(dispatchOptions))).block,
    dispatchAll: async (toolUses, dispatchOptions) =>
      (await runCalls(runtime, toolUses, blocksOnly(dispatchOptions), sequential)).map((outcome) => outcome.block),
    dispatchDetailed: (toolUse, dispatchOptions) => runCall(runtime, toolUse, dispatchOptions),
    dispatchAllDetailed: (toolUses, dispatchOptions) => runCalls(runtime, toolUses, dispatchOptions, sequential),
    on: (event, listener) => emitter.on(event, listener),
    onActiveToolsChange: (listener) => view.onActiveToolsChange(listener),
    acceptToolDefinition: (name) => registry.acceptToolDefinition(name),
    close() {
      view.close();
      unsubscribeRefreshError();
      closeResultBudget(runtime.budget);
      if (options.closeRegistry === true) options.registry.close();
    },
    flow: flow.view,
    approvals:
      approvals === undefined
        ? undefined
        : {
            // Flow rules count: a framework that asks a person itself asks for a guarded call while tainted.
            requires: (call) => approvals.requires(call) || flowAsks(flow, call.descriptor),
            seal: approvals.seal,
            resume: async (resumptions, dispatchOptions) => {
              const calls = await claimAndResume(runtime, approvals, resumptions, dispatchOptions?.traceContext);
              return sequential
                ? completeCallsInSequence(runtime, calls, dispatchOptions)
                : completeCalls(runtime, calls, dispatchOptions);
            },
          },
  };
}

/** Checks the options a session cannot work without; returns the session's tool timeout. */
function checkSessionOptions(options: CoreSessionOptions): number {
  const { toolTimeoutMs = DEFAULT_TOOL_TIMEOUT_MS } = options;
  if (typeof toolTimeoutMs !== "number" || !(toolTimeoutMs > 0)) {
    throw new TypeError(
      `createAgentSession: toolTimeoutMs must be a positive number of milliseconds (or Infinity for none), got ${String(toolTimeoutMs)}`,
    );
  }
  if (options.maxResultChars !== undefined && !isResultLimit(options.maxResultChars)) {
    throw new TypeError(
      `createAgentSession: maxResultChars must be a positive number of characters (or Infinity for none), got ${String(options.maxResultChars)}`,
    );
  }
  if (options.maxSpillBytes !== undefined && !isResultLimit(options.maxSpillBytes)) {
    throw new TypeError(
      `createAgentSession: maxSpillBytes must be a positive number of bytes (or Infinity for none), got ${String(options.maxSpillBytes)}`,
    );
  }
  if (options.workspace !== undefined && (typeof options.workspace !== "string" || options.workspace === "")) {
    throw new TypeError(`createAgentSession: workspace must be a folder's path, got ${String(options.workspace)}`);
  }
  return toolTimeoutMs;
}

/** `dispatch` cannot hand a paused call back, so it never pauses one: `approval-required` instead. */
function blocksOnly(options: DispatchOptions | undefined): DispatchOptions | undefined {
  return options?.pauseForApproval === true ? { ...options, pauseForApproval: false } : options;
}

/**
 * Claims each resumption's approval id once, in order (rejecting with `approval-used` at the first one
 * already decided, before anything runs), then resumes each call as its decision says.
 */
async function claimAndResume(
  runtime: CallRuntime,
  approvals: Approvals,
  resumptions: readonly ApprovalResumption[],
  parent: TraceContext | undefined,
): Promise<Call[]> {
  if (!Array.isArray(resumptions)) throw new TypeError("approvals.resume takes a list of { request, decision }");
  const entries = resumptions.map((entry: unknown, index) => {
    const request = isRecord(entry) ? entry.request : undefined;
    if (!isRecord(request) || typeof request.approvalId !== "string" || typeof request.toolName !== "string") {
      throw new TypeError(`approvals.resume: entry ${index} has no approval request`);
    }
    const { continuation, parent } = entry as ApprovalResumption;
    if (continuation !== undefined && !isToolUse(parent)) {
      throw new TypeError(`approvals.resume: entry ${index} has a continuation but no parent call { id, name, input }`);
    }
    return {
      request: request as unknown as ApprovalRequest,
      decision: (entry as ApprovalResumption).decision as unknown,
      suspended: continuation === undefined ? undefined : { continuation, parent: parent as ToolUse },
    };
  });
  const storeFailures = new Map<number, string>();
  for (const [index, { request }] of entries.entries()) {
    let first: boolean;
    try {
      first = (await approvals.store.claim(request.approvalId, request.expiresAt)) === true;
    } catch (error) {
      storeFailures.set(index, `the approval store failed: ${describeThrown(error)}`);
      continue;
    }
    if (!first) {
      throw new ApprovalError(
        "approval-used",
        `Approval ${request.approvalId} (tool ${request.toolName}) was already decided; a decision applies once.`,
        request.approvalId,
      );
    }
  }
  return entries.map(({ request, decision, suspended }, index) => {
    const failure = storeFailures.get(index);
    const decided = failure === undefined ? decision : { approve: false, reason: failure };
    if (suspended === undefined) return resumeCall(runtime, request, decided, parent);
    const { continuation } = suspended;
    return resumeSuspendedCall(runtime, suspended.parent, { request, decision: decided, continuation }, parent);
  });
}

function isToolUse(value: unknown): value is ToolUse {
  return isRecord(value) && typeof value.id === "string" && typeof value.name === "string";
}

/** The session's telemetry, or `undefined` without it (`telemetry: false` or absent). */
function sessionTelemetry(options: CoreSessionOptions): CallTelemetry | undefined {
  const { telemetry } = options;
  if (telemetry === undefined || telemetry === false) return undefined;
  if (telemetry !== true && !isRecord(telemetry)) {
    throw new TypeError(`createAgentSession: telemetry must be true or { tracer?, meter? }, got ${String(telemetry)}`);
  }
  if (options.createTelemetry === undefined) {
    throw new TypeError("createAgentSession: telemetry needs the root export's createAgentSession (toolwire)");
  }
  return options.createTelemetry(telemetry === true ? {} : telemetry);
}

/** Whether flow rules ask a person about a call of this tool now. */
function flowAsks(flow: Flow, descriptor: ToolDescriptor): boolean {
  return flow.enforced && flow.whenTainted === "approve" && flow.view.tainted && flow.isGuarded(descriptor);
}
