// One call's life, in order: startCall, checkCall, runCallBeforeHooks, judgeCall, approveCall, announceExecute, executeCall,
// noteUntrustedResult, runCallAfterHooks, saveResultOverBudget, endCall.
// Each phase moves the call's state (call-state.ts); the guarantees a call keeps are in docs/dispatch.md.
import {
  type Approvals,
  applyResumedDecision,
  askApproval,
  createApprovalRequest,
  readDecision,
} from "../approve/approvals.js";
import { frozenJsonCopy } from "../approve/frozen-json-copy.js";
import { copyJson } from "../copy-json.js";
import { describeThrown, toolCallRefusal } from "../errors.js";
import { askCallPolicy } from "../flow/ask-call-policy.js";
import type { Flow } from "../flow/create-flow.js";
import { nameFlowSources } from "../flow/name-flow-sources.js";
import { isRecord } from "../json.js";
import { errorResult } from "../tool-result.js";
import type {
  AfterToolCall,
  AgentTool,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalResolvedEvent,
  BeforeToolCall,
  DispatchOptions,
  JsonObject,
  JsonValue,
  ToolAvailabilityDiagnostic,
  ToolCallErrorCode,
  ToolCallOutcome,
  ToolUse,
  TraceContext,
  WriteLock,
} from "../types.js";
import { runAfterHooks, runBeforeHooks } from "../wrap/hooks.js";
import type { ToolOutcome } from "../wrap/wrap-tool.js";
import { CallContext, type ResumedCall } from "./call-context.js";
import { type CallEvent, type CallState, END, nextCallState, pausedCall, receivedCall, STARTED } from "./call-state.js";
import { type CallTelemetry, type CallWatch, watchCall } from "./call-watch.js";
import type { CallableTool } from "./callable-tool.js";
import type { SessionEmitter } from "./events.js";
import { parseToolInput } from "./parse-input.js";
import { abortedMessage, notFoundMessage } from "./refusal-messages.js";
import { applyResultBudget, isOverResultBudget, type ResultBudget } from "./result-budget.js";
import { invalidInputMessage } from "./validate.js";

/** What a call needs of its session. */
export interface CallRuntime {
  /** Which calls need a person's approval; `undefined` when none do (never with enforced flow rules). */
  readonly approvals: Approvals | undefined;
  /** Flow rules and the session's taint (docs/security.md). */
  readonly flow: Flow;
  activeTools(): ReadonlyMap<string, AgentTool>;
  /** Why availability hides a tool of this name, when it does (asked only for a call of a tool that is not active). */
  hiddenBecause(name: string): readonly ToolAvailabilityDiagnostic[] | undefined;
  /** The active tool named `name` as calls use it (`callableTool`). */
  callable(name: string): CallableTool | undefined;
  readonly beforeHooks: readonly BeforeToolCall[];
  readonly afterHooks: readonly AfterToolCall[];
  readonly lock: WriteLock;
  readonly toolTimeoutMs: number | undefined;
  readonly hookTimeoutMs: number;
  readonly emitter: SessionEmitter;
  /** How much text a result may hold, and where a larger one is saved. */
  readonly budget: ResultBudget;
  /** One span per call (docs/telemetry.md); `undefined` without telemetry. */
  readonly telemetry: CallTelemetry | undefined;
}

/** One call on its way: its state (plain JSON), and what only this process keeps of it. */
export interface Call {
  state: CallState;
  /** The input as the model sent it: untrusted, read by `checkCall`. */
  readonly rawInput: unknown;
  /** When the call began (a `performance.now()` reading). */
  readonly started: number;
  /**
   * Times the call's phases and holds its span; `undefined` when nobody listens for phases and there is no telemetry.
   */
  readonly watch: CallWatch | undefined;
  /** The active tool it calls, once found. */
  tool: CallableTool | undefined;
  /** The call whose program made this one (`DispatchOptions.parentToolCallId`), announced on its events. */
  readonly parentToolCallId: string | undefined;
  /** Set when the call runs again after its executor paused it: its executor's `context.resumption`. */
  resumed?: ResumedCall;
}

/** One call's whole life. Never rejects: a fault inside toolwire is the call's error result. */
export async function runCall(
  runtime: CallRuntime,
  toolUse: ToolUse,
  options: DispatchOptions | undefined,
): Promise<ToolCallOutcome> {
  let call: Call | undefined;
  try {
    call = startCall(runtime, toolUse, options);
    checkCall(runtime, call, options?.signal);
    if (call.state.kind === "ready" && runtime.beforeHooks.length > 0) await runCallBeforeHooks(runtime, call);
  } catch (error) {
    return internalFailure(runtime, call, toolUse, error);
  }
  return completeCall(runtime, call, options);
}

/**
 * The rest of a checked call's life: approval, the executor, the after hooks, the result budget and the end. A
 * phase with nothing to do is skipped. Never rejects.
 */
export async function completeCall(
  runtime: CallRuntime,
  call: Call,
  options: DispatchOptions | undefined,
): Promise<ToolCallOutcome> {
  try {
    if (call.state.kind === "ready" && runtime.flow.policy !== undefined) await judgeCall(runtime, call);
    if (call.state.kind === "ready" && runtime.approvals !== undefined) await approveCall(runtime, call, options);
    if (call.state.kind === "ready" && options?.beforeExecute !== undefined) await announceExecute(call, options);
    if (call.state.kind === "ready") await executeCall(runtime, call, options);
    if (call.state.kind === "executed") noteUntrustedResult(runtime, call);
    if (call.state.kind === "executed" && runtime.afterHooks.length > 0) await runCallAfterHooks(runtime, call);
    if (options?.keepWholeResult !== true && isOverBudget(runtime, call)) await saveResultOverBudget(runtime, call);
    return endCall(runtime, call);
  } catch (error) {
    return internalFailure(runtime, call, undefined, error);
  }
}

/** `fields` with the call's `parentToolCallId`, when it has one (a call the model made has none, not an `undefined`). */
function withParent<T extends object>(call: Call, fields: T): T & { readonly parentToolCallId?: string } {
  const { parentToolCallId } = call;
  return parentToolCallId === undefined ? fields : { ...fields, parentToolCallId };
}

function move(call: Call, event: CallEvent): void {
  call.state = nextCallState(call.state, event);
}

/**
 * received: reads an untrusted tool use and announces the call; `traceContext` is a trace it continues (from another
 * process), `parentToolCallId` the call whose program made it.
 */
export function startCall(
  runtime: CallRuntime,
  toolUse: ToolUse,
  origin: Pick<DispatchOptions, "traceContext" | "parentToolCallId"> | undefined,
): Call {
  const record: Record<string, unknown> = isRecord(toolUse) ? toolUse : {};
  const id = typeof record.id === "string" ? record.id : record.id === undefined ? "" : describeThrown(record.id);
  const name = typeof record.name === "string" ? record.name : describeThrown(record.name);
  const input = record.input;
  const parentToolCallId = typeof origin?.parentToolCallId === "string" ? origin.parentToolCallId : undefined;
  const started = performance.now();
  const { emitter } = runtime;
  const watched = runtime.telemetry !== undefined || emitter.has("tool_call_phase");
  const watch = watched
    ? watchCall(runtime, { id, name, started, input, parentToolCallId }, origin?.traceContext)
    : undefined;
  if (emitter.has("tool_execution_start")) {
    const event = { toolCallId: id, toolName: name, input, startedAt: performance.timeOrigin + started };
    emitter.emit("tool_execution_start", parentToolCallId === undefined ? event : { ...event, parentToolCallId });
  }
  return { state: receivedCall(id, name), rawInput: input, started, watch, tool: undefined, parentToolCallId };
}

/** received → ready or refused: finds the active tool, then parses and validates the input. */
export function checkCall(runtime: CallRuntime, call: Call, signal: AbortSignal | undefined): void {
  const { toolName } = call.state;
  const callable = runtime.callable(toolName);
  let event: CallEvent;
  if (callable === undefined) {
    event = { kind: "refused", code: "tool-not-found", message: notFoundMessage(toolName, runtime) };
  } else if (signal?.aborted) {
    event = { kind: "refused", code: "aborted", message: abortedMessage(toolName, signal) };
  } else {
    call.tool = callable;
    const parsed = parseToolInput(toolName, call.rawInput);
    const input = typeof parsed === "string" ? parsed : checkInput(callable, parsed, "input");
    event =
      typeof input === "string"
        ? { kind: "refused", code: "invalid-input", message: input }
        : { kind: "checked", input };
  }
  call.watch?.phase("validate", call.started, performance.now(), event.kind === "refused" ? event.code : undefined);
  move(call, event);
}

/** The input without a strict-mode provider's nulls, checked against the tool's schema; or the refusal's message. */
function checkInput(callable: CallableTool, input: JsonObject, origin: string): JsonObject | string {
  const cleaned = callable.dropNulls(input);
  const issues = callable.validate(cleaned);
  return issues === undefined ? cleaned : invalidInputMessage(callable.tool.descriptor.name, issues, origin);
}

/** ready → ready (its input as the hooks left it) or refused: the before hooks, inside the write lock. */
export async function runCallBeforeHooks(runtime: CallRuntime, call: Call): Promise<void> {
  const { state, tool } = call;
  if (state.kind !== "ready" || tool === undefined) return;
  const { id, toolName, input } = state;
  let hooksStart = 0;
  const outcome = await runtime.lock(() => {
    if (call.watch !== undefined) hooksStart = performance.now(); // inside the lock: the wait counts as queued
    const event = withParent(call, { toolName, toolCallId: id, input, descriptor: tool.tool.descriptor });
    return runBeforeHooks(runtime.beforeHooks, event, runtime.hookTimeoutMs, (rewritten) => {
      const checked = checkInput(tool, rewritten, "input from a beforeToolCall hook");
      return typeof checked === "string" ? { problem: checked } : { input: checked };
    });
  });
  let event: CallEvent;
  if (outcome.kind === "allow") event = { kind: "allowed", input: outcome.input };
  else if (outcome.kind === "block") {
    event = { kind: "refused", code: "blocked-by-hook", message: `Tool call blocked: ${outcome.reason}` };
  } else {
    const message =
      typeof outcome.problem === "string"
        ? outcome.problem
        : `Invalid input from a beforeToolCall hook for tool ${toolName}: expected an object, got ${describeThrown(outcome.value)}`;
    event = { kind: "refused", code: "invalid-input", message };
  }
  call.watch?.phase("before_hooks", hooksStart, performance.now(), event.kind === "refused" ? event.code : undefined);
  move(call, event);
}

/**
 * ready → ready or refused (`policy-denied`): the session's call policy (`flow.policy`) judges the call as it would
 * run, after the before hooks and before its approval.
 */
async function judgeCall(runtime: CallRuntime, call: Call): Promise<void> {
  const { state, tool } = call;
  const { policy } = runtime.flow;
  if (policy === undefined || state.kind !== "ready" || state.approved === true || tool === undefined) return;
  const { id, toolName, input } = state;
  const subject = withParent(call, { toolCallId: id, toolName, input, descriptor: tool.tool.descriptor });
  const denied = await askCallPolicy(policy, runtime.flow, subject, runtime.hookTimeoutMs);
  if (denied !== undefined) move(call, { kind: "refused", code: "policy-denied", message: denied });
}

/**
 * ready → ready (approved), refused (declined, expired, unanswerable, aborted, `flow-blocked`) or paused: between
 * the call policy and the executor, for a call the session's approvals require, or a guarded call while untrusted
 * content is in the session (flow rules). Paused when nobody here can answer and the caller can wait
 * (`pauseForApproval`). The wait holds no lock; the request is for exactly the input that runs.
 */
async function approveCall(runtime: CallRuntime, call: Call, options: DispatchOptions | undefined): Promise<void> {
  const { approvals, emitter, flow } = runtime;
  const { state, tool } = call;
  if (approvals === undefined || state.kind !== "ready" || state.approved === true || tool === undefined) return;
  const called = withParent(call, {
    toolCallId: state.id,
    toolName: state.toolName,
    input: state.input,
    descriptor: tool.tool.descriptor,
  });
  const tainted = flow.enforced && flow.view.tainted && flow.isGuarded(called.descriptor);
  if (tainted && flow.whenTainted === "block") {
    move(call, { kind: "refused", code: "flow-blocked", message: flowBlockedMessage(state.toolName, flow) });
    return;
  }
  if (!tainted && !approvals.requires(called)) return;
  const subject = tainted ? { ...called, reason: "untrusted-content" as const, sources: flow.view.sources } : called;
  const approver = options?.approver ?? approvals.approver;
  if (approver === undefined && options?.pauseForApproval === true) {
    const request = createApprovalRequest(approvals, subject);
    emitter.emit("approval_requested", request);
    move(call, { kind: "paused", request });
    return;
  }
  const asked = performance.now();
  const announcer = {
    requested: (request: ApprovalRequest) => {
      move(call, { kind: "approval-requested", request });
      emitter.emit("approval_requested", request);
    },
    resolved: (event: ApprovalResolvedEvent) => emitter.emit("approval_resolved", event),
  };
  const verdict = await askApproval(approvals, subject, announcer, options?.signal, approver);
  call.watch?.phase("approval", asked, performance.now(), verdict.approved ? undefined : verdict.code);
  // Approved: the copy of the input that was digested runs, not the object the hooks and the approver saw.
  move(
    call,
    verdict.approved
      ? { kind: "approved", input: verdict.input }
      : { kind: "refused", code: verdict.code, message: verdict.message },
  );
}

/** Why a guarded call was refused while the session is tainted: the calls that brought untrusted content. */
function flowBlockedMessage(toolName: string, flow: Flow): string {
  const from = nameFlowSources(flow.view.sources);
  return `Tool call ${toolName} blocked: this conversation holds content from untrusted tools (${from}), and ${toolName} can change things outside it. It was not run.`;
}

/**
 * paused → ready (approved) or refused: a paused call and its decision, once the caller claimed the approval's id.
 * Announced as a call again (it ends in this dispatch); approved, it runs exactly the request's input with the tool
 * active now, checked against that tool's schema once more, without before hooks (they ran before the pause).
 */
export function resumeCall(
  runtime: CallRuntime,
  request: ApprovalRequest,
  decision: unknown,
  parent: TraceContext | undefined,
): Call {
  // Read once into a frozen copy: announced, checked against the digest, and copied afresh to run.
  const copied = copyJson(request.input, "the approved input");
  const input = frozenJsonCopy(copied.ok && isRecord(copied.value) ? (copied.value as JsonObject) : {});
  const origin = { traceContext: parent, parentToolCallId: request.parentToolCallId };
  const call = startCall(runtime, { id: request.toolCallId, name: request.toolName, input }, origin);
  const { id, toolName } = call.state;
  call.state = pausedCall({ ...request, toolCallId: id, input });
  const { emitter } = runtime;
  const verdict = copied.ok
    ? applyResumedDecision({ ...request, input }, decision, {
        requested: (asked) => emitter.emit("approval_requested", asked),
        resolved: (event) => emitter.emit("approval_resolved", event),
      })
    : ({
        approved: false,
        code: "approval-declined",
        message: "Tool call declined: its input is not JSON data",
      } as const);
  if (!verdict.approved) {
    move(call, { kind: "refused", code: verdict.code, message: verdict.message });
    return call;
  }
  const callable = runtime.callable(toolName);
  if (callable === undefined) {
    move(call, { kind: "refused", code: "tool-not-found", message: notFoundMessage(toolName, runtime) });
    return call;
  }
  const checked = checkInput(callable, verdict.input, "approved input");
  if (typeof checked === "string") move(call, { kind: "refused", code: "invalid-input", message: checked });
  else {
    call.tool = callable;
    move(call, { kind: "approved", input: checked });
  }
  return call;
}

/**
 * A call its executor paused (`context.suspend`), to run again once the decision on its nested call `request` is
 * claimed: `parent` is the paused call as the model made it. Checked again, then ready as an approved call (its
 * before hooks and approval were passed before the pause); its executor gets `context.resumption`, whose
 * `runPausedCall` ends the nested call as decided, once, without claiming it again.
 */
export function resumeSuspendedCall(
  runtime: CallRuntime,
  parent: ToolUse,
  pause: { readonly request: ApprovalRequest; readonly decision: unknown; readonly continuation: JsonValue },
  trace: TraceContext | undefined,
): Call {
  const call = startCall(runtime, parent, { traceContext: trace });
  checkCall(runtime, call, undefined);
  if (call.state.kind === "ready") call.state = { ...call.state, approved: true };
  const { request, continuation } = pause;
  const read = readDecision(pause.decision);
  const decision: ApprovalDecision =
    read.approve || read.reason === undefined ? { approve: read.approve } : { approve: false, reason: read.reason };
  let used = false;
  call.resumed = {
    continuation,
    request,
    decision,
    runPausedCall: (options) => {
      if (used) {
        const again = new Error(`the paused call ${request.toolCallId} was already resumed`);
        return Promise.resolve(internalFailure(runtime, undefined, pausedUse(request), again));
      }
      used = true;
      // The decision as given: an expired request or a changed input is judged as for any resumed call.
      return completeCall(runtime, resumeCall(runtime, request, pause.decision, options.traceContext), options);
    },
  };
  return call;
}

function pausedUse(request: ApprovalRequest): ToolUse {
  return { id: request.toolCallId, name: request.toolName, input: request.input };
}

/** ready → ready, or refused: the caller's `beforeExecute` (a durable run records the start) before the executor. */
async function announceExecute(call: Call, options: DispatchOptions): Promise<void> {
  const { state } = call;
  if (state.kind !== "ready" || options.beforeExecute === undefined) return;
  const { id, toolName, input } = state;
  try {
    await options.beforeExecute({ toolCallId: id, toolName, input: frozenJsonCopy(input) });
  } catch (error) {
    const message = `Tool call ${toolName} was not run: its start could not be recorded (${describeThrown(error)}).`;
    move(call, { kind: "refused", code: "execution-failed", message });
  }
}

/**
 * ready → running → executed: runs the executor outside the lock, with the call's timeout (the tool's own wins
 * over the session's), counted from now, and the caller's signal. On either, the executor's signal is aborted
 * and the call goes on at once with an error result, whether or not the executor stops.
 */
function executeCall(runtime: CallRuntime, call: Call, options: DispatchOptions | undefined): Promise<void> {
  const { state, tool, watch } = call;
  if (state.kind !== "ready" || tool === undefined) return Promise.resolve();
  const { toolName, input } = state;
  const signal = options?.signal;
  if (signal?.aborted) {
    // Aborted while it waited for its hooks or a person: it goes on to the after hooks like a call that ran.
    move(call, { kind: "executed", ...stopped("aborted", abortedMessage(toolName, signal)) });
    return Promise.resolve();
  }
  move(call, STARTED);
  // `context.ask` only when someone can answer: the caller's `ask`, or an approver.
  const answerable = options?.ask ?? options?.approver ?? runtime.approvals?.approver;
  const asking =
    answerable === undefined
      ? undefined
      : {
          call: withParent(call, { toolCallId: state.id, toolName, input, descriptor: tool.tool.descriptor }),
          approvals: runtime.approvals,
        };
  const context = new CallContext(runtime.emitter, call, options, asking);
  const begun = watch === undefined ? 0 : performance.now(); // read for the execute phase only
  const delay = timerDelay(tool.tool.timeoutMs ?? runtime.toolTimeoutMs);
  return new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (outcome: ToolOutcome): void => {
      if (context.finished) return; // the first outcome (the executor's, the timeout's, the abort's) wins
      context.finished = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      const { result, errorCode } = outcome;
      watch?.phase("execute", begun, performance.now(), result.isError === true ? errorCode : undefined);
      const { suspension } = context;
      // The executor paused its call (`context.suspend`): what it returned is a stand-in.
      move(
        call,
        suspension === undefined ? { kind: "executed", result, errorCode } : { kind: "suspended", ...suspension },
      );
      resolve();
    };
    const stop = (code: "timeout" | "aborted", message: string): void => {
      if (context.finished) return;
      context.abort(toolCallRefusal(code, toolName, message));
      settle(stopped(code, message));
    };
    const onAbort = () => stop("aborted", abortedMessage(toolName, signal as AbortSignal));
    if (delay !== undefined) {
      timer = setTimeout(
        () =>
          stop(
            "timeout",
            `Tool ${toolName} timed out after ${delay} ms and was stopped. Try a smaller request, or another way to get the result.`,
          ),
        delay,
      );
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (watch === undefined) tool.tool.start(input, context, settle);
    else watch.enter(() => tool.tool.start(input, context, settle));
  });
}

/** The longest delay `setTimeout` keeps (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** A timeout as a timer delay: `undefined` (no timer) for none or `Infinity`, longer ones clamped. */
function timerDelay(timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined || timeoutMs === Number.POSITIVE_INFINITY) return undefined;
  return Math.min(Math.max(timeoutMs, 0), MAX_TIMER_DELAY_MS);
}

function stopped(code: ToolCallErrorCode, message: string): ToolOutcome {
  return { result: errorResult(message), errorCode: code };
}

/** executed: a call of an untrusted tool that ran taints the session, whatever its result (docs/security.md). */
function noteUntrustedResult(runtime: CallRuntime, call: Call): void {
  const { flow, emitter } = runtime;
  const { state, tool } = call;
  if (state.kind !== "executed" || tool === undefined || !flow.isUntrusted(tool.tool.descriptor)) return;
  const source = { toolCallId: state.id, toolName: state.toolName };
  if (flow.taint([source]) && emitter.has("flow_tainted")) {
    emitter.emit("flow_tainted", withParent(call, { ...source, sources: flow.view.sources }));
  }
}

/** executed → executed: the after hooks, inside the lock, patch the result. */
async function runCallAfterHooks(runtime: CallRuntime, call: Call): Promise<void> {
  const { state } = call;
  if (state.kind !== "executed") return;
  const { id, toolName } = state;
  let hooksStart = 0;
  const result = await runtime.lock(() => {
    if (call.watch !== undefined) hooksStart = performance.now(); // inside the lock: the wait counts as queued
    const durationMs = performance.now() - call.started;
    const event = withParent(call, { toolName, toolCallId: id, input: state.input, durationMs });
    return runAfterHooks(runtime.afterHooks, event, state.result, runtime.hookTimeoutMs, (error) =>
      runtime.emitter.emit("error", { code: error.code, error, toolCallId: id, toolName }),
    );
  });
  call.watch?.phase("after_hooks", hooksStart, performance.now());
  move(call, { kind: "result-changed", result });
}

/** Whether an executed call's result has more text than its tool's budget allows. */
function isOverBudget(runtime: CallRuntime, call: Call): boolean {
  const { state, tool } = call;
  return state.kind === "executed" && tool !== undefined && isOverResultBudget(runtime.budget, tool.tool, state.result);
}

/** executed → executed: the result's text saved whole to a file, and a preview of it in its place. */
async function saveResultOverBudget(runtime: CallRuntime, call: Call): Promise<void> {
  const { state, tool } = call;
  if (state.kind !== "executed" || tool === undefined) return;
  const result = await applyResultBudget(runtime.budget, tool.tool, state.id, state.result);
  move(call, { kind: "result-changed", result });
}

/**
 * The outcome of an ended, refused or paused call: announces its end (`tool_execution_end`; a paused call has not
 * ended, and hands back its request with a stand-in result that must not reach the model).
 */
export function endCall(runtime: CallRuntime, call: Call): ToolCallOutcome {
  move(call, END); // executed or refused → ended
  const { state, watch } = call;
  const ended = performance.now();
  const durationMs = ended - call.started;
  if (state.kind === "paused") {
    const { toolName, request, continuation } = state;
    const text =
      continuation === undefined
        ? `Tool call ${toolName} waits for a person's approval (${request.approvalId}); it has not run.`
        : `Tool call ${toolName} paused: its call ${request.toolName} waits for a person's approval (${request.approvalId}).`;
    const result = errorResult(text);
    watch?.end(result, undefined, ended, true);
    const block = { type: "tool_result" as const, tool_use_id: state.id, content: result.content, is_error: true };
    const outcome = { block, result, errorCode: "approval-required" as const, durationMs, pendingApproval: request };
    return continuation === undefined ? outcome : { ...outcome, continuation };
  }
  if (state.kind !== "ended") throw new Error(`endCall: the call is ${state.kind}, not ended`);
  const { id, toolName, result, errorCode } = state;
  watch?.end(result, errorCode, ended);
  if (runtime.emitter.has("tool_execution_end")) {
    const isError = result.isError === true;
    const event =
      errorCode === undefined
        ? { toolCallId: id, toolName, durationMs, isError, result }
        : { toolCallId: id, toolName, durationMs, isError, errorCode, result };
    runtime.emitter.emit("tool_execution_end", withParent(call, event));
  }
  return outcomeOf(state, durationMs);
}

function outcomeOf(state: Extract<CallState, { kind: "ended" }>, durationMs: number): ToolCallOutcome {
  const { id, result, errorCode } = state;
  const block =
    result.isError === true
      ? { type: "tool_result" as const, tool_use_id: id, content: result.content, is_error: true }
      : { type: "tool_result" as const, tool_use_id: id, content: result.content };
  return errorCode === undefined ? { block, result, durationMs } : { block, result, errorCode, durationMs };
}

/** A bug in toolwire or a hostile value: still one error result for the call, never a rejection. */
export function internalFailure(
  runtime: CallRuntime,
  call: Call | undefined,
  toolUse: ToolUse | undefined,
  error: unknown,
): ToolCallOutcome {
  const failed: Call = call ?? {
    state: receivedCall(
      safeString(() => toolUse?.id),
      safeString(() => toolUse?.name),
    ),
    rawInput: undefined,
    started: performance.now(),
    watch: undefined,
    tool: undefined,
    parentToolCallId: undefined,
  };
  move(failed, { kind: "failed", message: `Tool call failed inside toolwire: ${describeThrown(error)}` });
  try {
    return endCall(runtime, failed);
  } catch {
    // An event listener cannot throw (the emitter catches it), so this is a fault in the ending itself: end quietly.
    return outcomeOf(failed.state as Extract<CallState, { kind: "ended" }>, performance.now() - failed.started);
  }
}

function safeString(read: () => unknown): string {
  try {
    const value = read();
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}
