// One call's life, in order: startToolCall, prepareToolCall, approveToolCall, executePreparedToolCall, finalizeExecutedToolCall.
import {
  type ApprovalAnnouncer,
  type Approvals,
  type ApprovalVerdict,
  applyResumedDecision,
  askApproval,
  createApprovalRequest,
} from "../approve/approvals.js";
import { frozenJsonCopy } from "../approve/frozen-json-copy.js";
import { copyJson } from "../copy-json.js";
import { cutText, describeThrown, dispatchRefusal, SessionError, ToolCallError, toolCallRefusal } from "../errors.js";
import { isRecord } from "../json.js";
import { errorResult, normalizeToolResult } from "../tool-result.js";
import type {
  AfterToolCall,
  AgentTool,
  ApprovalRequest,
  BeforeToolCall,
  DispatchOptions,
  JsonObject,
  JsonValue,
  ToolAvailabilityDiagnostic,
  ToolCallContext,
  ToolCallErrorCode,
  ToolCallOutcome,
  ToolLogEvent,
  ToolLogLevel,
  ToolResult,
  ToolResultBlock,
  ToolUse,
  TraceContext,
  WriteLock,
} from "../types.js";
import { type BeforeChainOutcome, runAfterHooks, runBeforeHooks } from "../wrap/hooks.js";
import { type OutcomeSink, type ToolOutcome, type WrappedTool, wrapTool } from "../wrap/wrap-tool.js";
import { runLocked } from "../wrap/write-lock.js";
import type { CallEnds } from "./call-ends.js";
import { type CallTelemetry, type CallWatch, watchCall } from "./call-watch.js";
import type { Deadline, DeadlineClock } from "./deadline-clock.js";
import type { SessionEmitter } from "./events.js";
import { guardAbortListeners } from "./guard-abort-listeners.js";
import { parseToolInput } from "./parse-input.js";
import { applyResultBudget, type ResultBudget } from "./result-budget.js";
import { nullDropperFor } from "./strip-nulls.js";
import { type InputValidator, invalidInputError } from "./validate.js";

/** What a call needs of its session. */
export interface CallRuntime {
  /** Which calls need a person's approval; `undefined` when none do. */
  readonly approvals: Approvals | undefined;
  activeTools(): ReadonlyMap<string, AgentTool>;
  /** Why availability hides a tool of this name, when it does (asked only for a call of a tool that is not active). */
  hiddenBecause(name: string): readonly ToolAvailabilityDiagnostic[] | undefined;
  /** The active tool named `name` as calls use it (`callableTool`), made once per tool and kept until the tools change. */
  callable(name: string): CallableTool | undefined;
  readonly beforeHooks: readonly BeforeToolCall[];
  readonly afterHooks: readonly AfterToolCall[];
  readonly lock: WriteLock;
  readonly toolTimeoutMs: number | undefined;
  /** Where calls' timeouts are kept: one timer per delay, not one per call. */
  readonly deadlines: DeadlineClock;
  readonly hookTimeoutMs: number;
  readonly emitter: SessionEmitter;
  /** How much text a result may hold, and where a larger one is saved. */
  readonly budget: ResultBudget;
  /** One span per call (SPEC 17); `undefined` without telemetry. */
  readonly telemetry: CallTelemetry | undefined;
}

/** An active tool as calls use it: its wrapper and its input check, made once rather than looked up per call. */
export interface CallableTool {
  readonly tool: WrappedTool;
  /** Drops the nulls a strict-mode provider sends for optional properties (`dropNullOptionals`). */
  readonly dropNulls: (input: JsonObject) => JsonObject;
  readonly validate: InputValidator;
}

/** `tool` as calls use it, with the session's validator for its schema. */
export function callableTool(tool: AgentTool, validatorFor: (schema: JsonObject) => InputValidator): CallableTool {
  const schema = tool.descriptor.inputSchema;
  return { tool: wrapTool(tool), dropNulls: nullDropperFor(schema), validate: validatorFor(schema) };
}

/** A call as it arrived. */
export interface CallInfo {
  readonly id: string;
  readonly name: string;
  readonly rawInput: unknown;
  /** When the call began (a `performance.now()` reading), or NaN when nothing needed it (see `startToolCall`). */
  readonly started: number;
  /** Times the call's phases and holds its span; `undefined` when nobody listens for phases and there is no telemetry. */
  readonly watch: CallWatch | undefined;
}

/** A call refused before its executor, ready to run, or paused until a person decides (`pauseForApproval`). */
export type PreparedCall =
  | { readonly kind: "refused"; readonly info: CallInfo; readonly error: ToolCallError }
  | {
      readonly kind: "ready";
      readonly info: CallInfo;
      readonly tool: WrappedTool;
      readonly input: JsonObject;
      /** Set for a call resumed with a person's yes: the approval phase is behind it. */
      readonly approved?: true;
    }
  | { readonly kind: "paused"; readonly info: CallInfo; readonly request: ApprovalRequest };

/** A call ready to run. */
export type ReadyCall = Extract<PreparedCall, { kind: "ready" }>;

/**
 * Reads an untrusted tool use and announces the call; `parent` is a trace it continues (from another process).
 * `clocked`: the call's start is read even when nothing else here needs it (its ending reports a duration).
 */
export function startToolCall(
  runtime: CallRuntime,
  toolUse: ToolUse,
  parent: TraceContext | undefined,
  clocked: boolean,
): CallInfo {
  const record: Record<string, unknown> = isRecord(toolUse) ? toolUse : {};
  const id = typeof record.id === "string" ? record.id : record.id === undefined ? "" : describeThrown(record.id);
  const name = typeof record.name === "string" ? record.name : describeThrown(record.name);
  // Checked here, before anything is made for the watch: an unwatched call with no listeners pays one field read.
  const { emitter } = runtime;
  const listened = emitter.callListeners !== 0;
  const watched = runtime.telemetry !== undefined || (listened && emitter.has("tool_call_phase"));
  // The clock is read only when something uses the call's start: a reading costs about a tenth of a dispatch.
  const timed = clocked || watched || listened || runtime.afterHooks.length > 0;
  const started = timed ? performance.now() : Number.NaN;
  const watch = watched ? watchCall(runtime, { id, name, started, input: record.input }, parent) : undefined;
  const info: CallInfo = { id, name, rawInput: record.input, started, watch };
  if (listened && emitter.has("tool_execution_start")) {
    emitter.emit("tool_execution_start", {
      toolCallId: id,
      toolName: name,
      input: record.input,
      startedAt: performance.timeOrigin + started,
    });
  }
  return info;
}

/**
 * Looks the tool up, parses and validates the input, and runs the before hooks inside the lock.
 * Synchronous when there are no hooks or they all return plain values.
 */
export function prepareToolCall(
  runtime: CallRuntime,
  info: CallInfo,
  signal: AbortSignal | undefined,
): PreparedCall | Promise<PreparedCall> {
  const callable = runtime.callable(info.name);
  if (callable === undefined) return refusedAtValidation(info, notFoundError(info.name, runtime));
  if (signal?.aborted) return refusedAtValidation(info, abortedError(info.name, signal));
  const { tool } = callable;
  // `instanceof Error`, not `ToolCallError`: the input is a plain-data copy, never an Error, and the error family's
  // own `instanceof` (which also knows other copies of toolwire) costs a symbol lookup on every input.
  const parsed = parseToolInput(info.name, info.rawInput);
  if (parsed instanceof Error) return refusedAtValidation(info, parsed);
  const input = validateInput(callable, parsed, "input");
  if (input instanceof Error) return refusedAtValidation(info, input);
  info.watch?.phase("validate", info.started, performance.now());
  if (runtime.beforeHooks.length === 0) return { kind: "ready", info, tool, input };
  // Refused by a hook: the before_hooks phase reports it (`refusedAtValidation` reports validate).
  const refusedByHook = (error: ToolCallError): PreparedCall => ({ kind: "refused", info, error });
  let hooksStart = 0;
  const decide = (outcome: BeforeChainOutcome): PreparedCall => {
    info.watch?.phase("before_hooks", hooksStart, performance.now(), beforeHookFailure(outcome));
    switch (outcome.kind) {
      case "allow":
        return { kind: "ready", info, tool, input: outcome.input };
      case "block":
        return refusedByHook(dispatchRefusal("blocked-by-hook", info.name, `Tool call blocked: ${outcome.reason}`));
      case "invalid-rewrite":
        return refusedByHook(
          outcome.problem instanceof ToolCallError
            ? outcome.problem
            : dispatchRefusal(
                "invalid-input",
                info.name,
                `Invalid input from a beforeToolCall hook for tool ${info.name}: expected an object, got ${describeThrown(outcome.value)}`,
              ),
        );
    }
  };
  const outcome = runLocked(runtime.lock, () => {
    hooksStart = performance.now(); // inside the lock: the wait for it counts as queued
    return runBeforeHooks(
      runtime.beforeHooks,
      { toolName: info.name, toolCallId: info.id, input, descriptor: tool.descriptor },
      runtime.hookTimeoutMs,
      (rewritten) => {
        const checked = validateInput(callable, rewritten, "input from a beforeToolCall hook");
        return checked instanceof ToolCallError ? { problem: checked } : { input: checked };
      },
    );
  });
  return outcome instanceof Promise ? outcome.then(decide) : decide(outcome);
}

/** A call refused before its hooks: the validate phase reports why. */
function refusedAtValidation(info: CallInfo, error: ToolCallError): PreparedCall {
  info.watch?.phase("validate", info.started, performance.now(), error.code);
  return { kind: "refused", info, error };
}

function beforeHookFailure(outcome: BeforeChainOutcome): ToolCallErrorCode | undefined {
  if (outcome.kind === "allow") return undefined;
  if (outcome.kind === "block") return "blocked-by-hook";
  return outcome.problem instanceof ToolCallError ? outcome.problem.code : "invalid-input";
}

/**
 * The approval phase, between the before hooks and the executor: `undefined` when the call needs no
 * approval (the synchronous path), else the call as approved, refused (declined, expired, unanswerable,
 * aborted), or paused when nobody here can answer and the caller can wait (`pauseForApproval`). The
 * wait holds no lock; the request is for exactly the input that runs.
 */
export function approveToolCall(
  runtime: CallRuntime,
  call: ReadyCall,
  options: DispatchOptions | undefined,
): PreparedCall | Promise<PreparedCall> | undefined {
  const { approvals } = runtime;
  if (approvals === undefined) return undefined; // no approvals: the synchronous path, nothing read
  const { info, tool, input } = call;
  if (call.approved === true) return undefined; // resumed after a pause, already decided
  const subject = { toolCallId: info.id, toolName: info.name, input, descriptor: tool.descriptor };
  if (!approvals.requires(subject)) return undefined;
  const approver = options?.approver ?? approvals.approver;
  if (approver === undefined && options?.pauseForApproval === true) {
    const request = createApprovalRequest(approvals, subject);
    runtime.emitter.emit("approval_requested", request);
    return { kind: "paused", info, request };
  }
  const asked = performance.now();
  return askApproval(approvals, subject, announcerOf(runtime), options?.signal, approver).then((verdict) => {
    info.watch?.phase("approval", asked, performance.now(), verdict.approved ? undefined : verdict.code);
    // Approved: the copy of the input that was digested runs, not the object the hooks and the approver saw.
    return verdict.approved ? { ...call, input: verdict.input } : refusedBy(info, verdict);
  });
}

/**
 * A paused call, decided: the approval's id was claimed once by the caller. Announced as a call again
 * (it ends in this dispatch); approved, it runs exactly the request's input with the tool active now,
 * checked against that tool's schema once more, without before hooks (they ran before the pause).
 */
export function prepareResumedCall(
  runtime: CallRuntime,
  request: ApprovalRequest,
  decision: unknown,
  parent?: TraceContext,
): PreparedCall {
  // Read once into a frozen copy: announced, checked against the digest, and copied afresh to run.
  const copied = copyJson(request.input, "the approved input");
  const input = frozenJsonCopy(copied.ok && isRecord(copied.value) ? (copied.value as JsonObject) : {});
  const info = startToolCall(runtime, { id: request.toolCallId, name: request.toolName, input }, parent, true);
  const verdict = copied.ok
    ? applyResumedDecision({ ...request, input }, decision, announcerOf(runtime))
    : ({
        approved: false,
        code: "approval-declined",
        message: "Tool call declined: its input is not JSON data",
      } as const);
  if (!verdict.approved) return refusedBy(info, verdict);
  const callable = runtime.callable(info.name);
  if (callable === undefined) return { kind: "refused", info, error: notFoundError(info.name, runtime) };
  const checked = validateInput(callable, verdict.input, "approved input");
  return checked instanceof ToolCallError
    ? { kind: "refused", info, error: checked }
    : { kind: "ready", info, tool: callable.tool, input: checked, approved: true };
}

function announcerOf(runtime: CallRuntime): ApprovalAnnouncer {
  const { emitter } = runtime;
  return {
    requested: (request) => emitter.emit("approval_requested", request),
    resolved: (event) => emitter.emit("approval_resolved", event),
  };
}

function refusedBy(info: CallInfo, verdict: Exclude<ApprovalVerdict, { approved: true }>): PreparedCall {
  return { kind: "refused", info, error: toolCallRefusal(verdict.code, info.name, verdict.message) };
}

function validateInput(callable: CallableTool, input: JsonObject, origin: string): JsonObject | ToolCallError {
  const cleaned = callable.dropNulls(input);
  const issues = callable.validate(cleaned);
  return issues === undefined ? cleaned : invalidInputError(callable.tool.descriptor.name, issues, origin);
}

/** The most characters of a model-written tool name that an error message repeats. */
const MAX_ECHOED_NAME_CHARS = 100;

/** The most reasons a refusal of a hidden tool gives, and the most characters of each. */
const MAX_HIDDEN_REASONS = 3;
const MAX_HIDDEN_REASON_CHARS = 300;

/** A call of a tool that is not active: a hidden one says why it is hidden, any other one names a close match. */
function notFoundError(name: string, runtime: CallRuntime): ToolCallError {
  const names = [...runtime.activeTools().keys()];
  const shown = cutText(name, MAX_ECHOED_NAME_CHARS);
  const available = `Available tools: ${names.length === 0 ? "none" : names.join(", ")}.`;
  const hidden = runtime.hiddenBecause(name);
  if (hidden !== undefined && hidden.length > 0) {
    const reasons = hidden
      .slice(0, MAX_HIDDEN_REASONS)
      .map((diagnostic) => cutText(diagnostic.message, MAX_HIDDEN_REASON_CHARS));
    return dispatchRefusal(
      "tool-not-found",
      shown,
      `Tool ${shown} is not available here, so it was not run: ${reasons.join("; ")}. ${available}`,
    );
  }
  const lower = name.toLowerCase();
  const similar = names.find((candidate) => candidate.toLowerCase() === lower);
  const hint = similar === undefined ? "" : ` Did you mean ${similar}? Tool names are case-sensitive.`;
  return dispatchRefusal("tool-not-found", shown, `Tool ${shown} not found.${hint} ${available}`);
}

function abortedError(name: string, signal: AbortSignal): ToolCallError {
  const reason = signal.reason;
  const why =
    reason === undefined || (reason instanceof Error && reason.name === "AbortError")
      ? "the caller aborted it"
      : describeThrown(reason);
  return toolCallRefusal("aborted", name, `Tool call ${name} aborted: ${why}`);
}

/**
 * Runs the executor outside the lock, with the call's timeout (the tool's own wins over the
 * session's), counted from `executorStart` (a `performance.now()` reading taken when the executor
 * may start), and the caller's abort signal. On either, the executor's signal is aborted and the
 * call ends at once with an error outcome, whether or not the executor stops. The outcome goes on to
 * `finalizeExecutedToolCall` in the same step, and the call's end to `ends.put(slot, ...)`: no promise
 * of toolwire's own between the executor and the caller (a `.then` per phase cost about a tenth of a
 * dispatch). A fault inside toolwire after the executor ends the call with `internalFailure`.
 */
export function executePreparedToolCall<T>(
  runtime: CallRuntime,
  call: ReadyCall,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
  ends: CallEnds<T>,
  slot: number,
): void {
  const { tool, info } = call;
  const signal = options?.signal;
  if (signal?.aborted) {
    ends.put(slot, finalizeSafely(runtime, call, stopped(abortedError(info.name, signal)), ending));
    return;
  }
  const context = new CallContext(runtime, info, options);
  const timeoutMs = timerDelay(tool.timeoutMs ?? runtime.toolTimeoutMs);
  const running = new RunningCall(context, call, ending, ends, slot, signal, timeoutMs, executorStart);
  const { watch } = info;
  if (watch === undefined) tool.start(call.input, context, running);
  else watch.enter(() => tool.start(call.input, context, running));
}

/**
 * One executor run racing its deadline and the caller's signal; the first to come ends the call.
 * A class, not closures: it is made for every call, and is its own abort listener, expiry and
 * outcome sink.
 */
class RunningCall<T> implements OutcomeSink {
  readonly #context: CallContext;
  readonly #call: ReadyCall;
  readonly #ending: CallEnding<T>;
  readonly #ends: CallEnds<T>;
  readonly #slot: number;
  readonly #signal: AbortSignal | undefined;
  readonly #timeoutMs: number | undefined;
  readonly #deadline: Deadline | undefined;
  /** When the executor began (a `performance.now()` reading), for its phase; 0 when the call is not watched. */
  readonly #begun: number;

  constructor(
    context: CallContext,
    call: ReadyCall,
    ending: CallEnding<T>,
    ends: CallEnds<T>,
    slot: number,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    executorStart: number,
  ) {
    this.#context = context;
    this.#call = call;
    this.#ending = ending;
    this.#ends = ends;
    this.#slot = slot;
    this.#signal = signal;
    this.#timeoutMs = timeoutMs;
    this.#begun = context.info.watch === undefined ? 0 : performance.now();
    this.#deadline =
      timeoutMs === undefined ? undefined : context.runtime.deadlines.after(timeoutMs, executorStart, this);
    signal?.addEventListener("abort", this, { once: true });
  }

  /** The executor's outcome; the first outcome (the executor's, the deadline's or the abort's) wins. */
  settle(outcome: ToolOutcome): void {
    const context = this.#context;
    if (context.finished) return;
    context.finished = true;
    this.#deadline?.cancel();
    this.#signal?.removeEventListener("abort", this);
    context.info.watch?.phase(
      "execute",
      this.#begun,
      performance.now(),
      outcome.result.isError === true ? outcome.errorCode : undefined,
    );
    this.#ends.put(this.#slot, finalizeSafely(context.runtime, this.#call, outcome, this.#ending));
  }

  /** The caller aborted (this object is the signal's listener). */
  handleEvent(): void {
    this.#stop(abortedError(this.#context.info.name, this.#signal as AbortSignal));
  }

  /** The deadline passed. */
  expire(): void {
    const { name } = this.#context.info;
    this.#stop(
      toolCallRefusal(
        "timeout",
        name,
        `Tool ${name} timed out after ${this.#timeoutMs} ms and was stopped. Try a smaller request, or another way to get the result.`,
      ),
    );
  }

  #stop(error: ToolCallError): void {
    if (this.#context.finished) return;
    this.#context.abort(error);
    this.settle(stopped(error));
  }
}

/** The longest delay `setTimeout` keeps (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** A timeout as a timer delay: `undefined` (no timer) for none or `Infinity`, longer ones clamped. */
function timerDelay(timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined || timeoutMs === Number.POSITIVE_INFINITY) return undefined;
  return Math.min(Math.max(timeoutMs, 0), MAX_TIMER_DELAY_MS);
}

/**
 * The executor's context. Its AbortSignal is made on first read: most executors never read it, and
 * an AbortController per call would cost more than the rest of dispatch together.
 */
class CallContext implements ToolCallContext {
  finished = false;
  readonly toolCallId: string;
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;

  #log: ToolCallContext["log"];
  #onUpdate: ToolCallContext["onUpdate"] | undefined;
  #abortListeners: ((reason: unknown) => void)[] | undefined;

  constructor(
    readonly runtime: CallRuntime,
    readonly info: CallInfo,
    /** The caller's own listeners for this call (`onUpdate`, `onLog`). */
    private readonly options: DispatchOptions | undefined,
  ) {
    this.toolCallId = info.id;
  }

  /** Made on first read, like the signal: most executors never log. Never throws. */
  get log(): NonNullable<ToolCallContext["log"]> {
    this.#log ??= (level, data, logger) => {
      const { runtime, info, options } = this;
      const listened = runtime.emitter.has("tool_log");
      if (this.finished || (!listened && options?.onLog === undefined)) return;
      const entry = readLogEntry(info, level, data, logger);
      if (entry === undefined) return;
      if (listened) runtime.emitter.emit("tool_log", entry);
      this.#callListener("onLog", () => options?.onLog?.(entry));
    };
    return this.#log;
  }

  #callListener(which: "onUpdate" | "onLog", call: () => void): void {
    try {
      call();
    } catch (error) {
      const { runtime, info } = this;
      runtime.emitter.emit("error", {
        code: "listener-failed",
        error: new SessionError(
          "listener-failed",
          `An ${which} listener of a dispatch threw: ${describeThrown(error)}`,
          {
            cause: error,
          },
        ),
        toolCallId: info.id,
        toolName: info.name,
      });
    }
  }

  /** A stretch of the executor's own work (such as `sandbox_start`), from `start` until now. Never throws. */
  phase(name: string, start: number): void {
    const { watch } = this.info;
    if (watch === undefined || this.finished || typeof name !== "string" || typeof start !== "number") return;
    watch.phase(cutText(name, 100), Math.min(start, performance.now()), performance.now(), undefined, true);
  }

  get span(): ToolCallContext["span"] {
    return this.info.watch?.span;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      guardAbortListeners(this.#controller.signal, (error) => this.#reportListenerFault(error));
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  #reportListenerFault(error: unknown): void {
    const { runtime, info } = this;
    runtime.emitter.emit("error", {
      code: "listener-failed",
      error: new SessionError(
        "listener-failed",
        `An abort listener of tool ${info.name} threw: ${describeThrown(error)}`,
        {
          cause: error,
        },
      ),
      toolCallId: info.id,
      toolName: info.name,
    });
  }

  /** Hears of the call's abort without making its signal; a listener that throws is reported, never rethrown. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (typeof listener !== "function") throw new TypeError("context.onAbort takes a function");
    if (this.#aborted) {
      this.#callAbortListener(listener);
      return () => {};
    }
    this.#abortListeners ??= [];
    const listeners = this.#abortListeners;
    listeners.push(listener);
    return () => {
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    };
  }

  abort(reason: unknown): void {
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#abortListeners;
    this.#abortListeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) this.#callAbortListener(listener);
  }

  #callAbortListener(listener: (reason: unknown) => void): void {
    try {
      listener(this.#reason);
    } catch (error) {
      this.#reportListenerFault(error);
    }
  }

  /** Made on first read, like the signal: most executors report no progress. Never throws: a malformed partial is dropped, and listeners cannot break the executor. */
  get onUpdate(): ToolCallContext["onUpdate"] {
    this.#onUpdate ??= (partial: ToolResult): void => {
      const { runtime, info } = this;
      const progress = this.options?.onUpdate;
      const listened = runtime.emitter.has("tool_execution_update");
      if (this.finished || (!listened && progress === undefined)) return;
      const normalized = normalizeToolResult(partial);
      if (typeof normalized === "string") return;
      if (listened) {
        runtime.emitter.emit("tool_execution_update", {
          toolCallId: info.id,
          toolName: info.name,
          partial: normalized,
        });
      }
      if (progress !== undefined) this.#callListener("onUpdate", () => progress(normalized));
    };
    return this.#onUpdate;
  }
}

const LOG_LEVELS: ReadonlySet<string> = new Set([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
]);

/** A log message as plain data, or `undefined` for one that is not (a bad level, data that is not JSON). */
function readLogEntry(info: CallInfo, level: unknown, data: unknown, logger: unknown): ToolLogEvent | undefined {
  if (typeof level !== "string" || !LOG_LEVELS.has(level)) return undefined;
  const copied = copyJson(data, "the log data");
  if (!copied.ok) return undefined;
  const entry = {
    toolCallId: info.id,
    toolName: info.name,
    level: level as ToolLogLevel,
    data: copied.value as JsonValue,
  };
  return typeof logger === "string" ? { ...entry, logger: cutText(logger, 200) } : entry;
}

function stopped(error: ToolCallError): ToolOutcome {
  return { result: errorResult(error.message), errorCode: error.code, error };
}

/**
 * How a call's life ends: the shape the caller gets (`dispatch`'s block, or `dispatchDetailed`'s outcome).
 * `pending` is set when the call did not end but paused for approval.
 */
export interface CallEnding<T> {
  (
    runtime: CallRuntime,
    info: CallInfo,
    result: ToolResult,
    errorCode: ToolCallErrorCode | undefined,
    pending?: ApprovalRequest,
  ): T;
  /** Whether this ending reports how long the call took: then each call reads the clock as it starts. */
  readonly reportsDuration: boolean;
}

/**
 * Runs the after hooks inside the lock (only for calls that reached the executor), keeps the result within its
 * budget (a larger one is saved to a file and previewed), and ends the call.
 */
export function finalizeExecutedToolCall<T>(
  runtime: CallRuntime,
  call: ReadyCall,
  outcome: ToolOutcome,
  ending: CallEnding<T>,
): T | Promise<T> {
  const { info } = call;
  if (runtime.afterHooks.length === 0) return endWithinBudget(runtime, call, outcome, outcome.result, ending);
  let hooksStart = 0;
  const result = runLocked(runtime.lock, () => {
    hooksStart = performance.now(); // inside the lock: the wait for it counts as queued
    return runAfterHooks(
      runtime.afterHooks,
      { toolName: info.name, toolCallId: info.id, input: call.input, durationMs: durationOf(info, performance.now()) },
      outcome.result,
      runtime.hookTimeoutMs,
      (error: SessionError) =>
        runtime.emitter.emit("error", { code: error.code, error, toolCallId: info.id, toolName: info.name }),
    );
  });
  const afterHooks = (hooked: ToolResult) => {
    info.watch?.phase("after_hooks", hooksStart, performance.now());
    return endWithinBudget(runtime, call, outcome, hooked, ending);
  };
  return result instanceof Promise ? result.then(afterHooks) : afterHooks(result);
}

/** `finalizeExecutedToolCall`, where a fault inside toolwire ends the call with `internalFailure`. Never throws or rejects. */
function finalizeSafely<T>(runtime: CallRuntime, call: ReadyCall, outcome: ToolOutcome, ending: CallEnding<T>) {
  try {
    const end = finalizeExecutedToolCall(runtime, call, outcome, ending);
    return end instanceof Promise
      ? end.catch((error: unknown) => internalFailure(runtime, call.info, undefined, error, ending))
      : end;
  } catch (error) {
    return internalFailure(runtime, call.info, undefined, error, ending);
  }
}

/** Keeps the result within its budget (a larger one is saved to a file and previewed), and ends the call. */
function endWithinBudget<T>(
  runtime: CallRuntime,
  call: ReadyCall,
  outcome: ToolOutcome,
  result: ToolResult,
  ending: CallEnding<T>,
): T | Promise<T> {
  const budgeted = applyResultBudget(runtime.budget, call.tool, call.info.id, result);
  if (budgeted instanceof Promise) return budgeted.then((kept) => endWith(runtime, call, outcome, kept, ending));
  return endWith(runtime, call, outcome, budgeted, ending);
}

function endWith<T>(
  runtime: CallRuntime,
  call: ReadyCall,
  outcome: ToolOutcome,
  result: ToolResult,
  ending: CallEnding<T>,
): T {
  return ending(runtime, call.info, result, result.isError === true ? outcome.errorCode : undefined);
}

/** A bug in toolwire or a hostile value: still one error result for the call, never a rejection. */
export function internalFailure<T>(
  runtime: CallRuntime,
  info: CallInfo | undefined,
  toolUse: ToolUse | undefined,
  error: unknown,
  ending: CallEnding<T>,
): T {
  const fallback: CallInfo = info ?? {
    id: safeString(() => (toolUse as { id?: unknown }).id),
    name: safeString(() => (toolUse as { name?: unknown }).name),
    rawInput: undefined,
    started: performance.now(),
    watch: undefined,
  };
  const result = errorResult(`Tool call failed inside toolwire: ${describeThrown(error)}`);
  try {
    return ending(runtime, fallback, result, "execution-failed");
  } catch {
    // An event listener cannot throw (the emitter catches it), so this is a fault in the ending itself: end quietly.
    return ending({ ...runtime, emitter: SILENT_EMITTER }, fallback, result, "execution-failed");
  }
}

const SILENT_EMITTER: CallRuntime["emitter"] = {
  on: () => () => {},
  emit: () => {},
  has: () => false,
  callListeners: 0,
};

function safeString(read: () => unknown): string {
  try {
    const value = read();
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

/** Ends a call refused before its executor. */
export function refuseToolCall<T>(
  runtime: CallRuntime,
  call: Extract<PreparedCall, { kind: "refused" }>,
  ending: CallEnding<T>,
): T {
  return ending(runtime, call.info, errorResult(call.error.message), call.error.code);
}

/** Hands back a call paused for approval: a stand-in result, and the request to resume it with. */
export function pauseToolCall<T>(
  runtime: CallRuntime,
  call: Extract<PreparedCall, { kind: "paused" }>,
  ending: CallEnding<T>,
): T {
  const { info, request } = call;
  const text = `Tool call ${info.name} waits for a person's approval (${request.approvalId}); it has not run.`;
  return ending(runtime, info, errorResult(text), "approval-required", request);
}

/** Ends a call as `dispatch` answers: announces it, and shapes its `tool_result`. */
export const endToolCall: CallEnding<ToolResultBlock> = Object.assign(
  (runtime: CallRuntime, info: CallInfo, result: ToolResult, errorCode: ToolCallErrorCode | undefined) => {
    info.watch?.end(result, errorCode, performance.now());
    if (runtime.emitter.callListeners !== 0 && runtime.emitter.has("tool_execution_end")) {
      announceEnd(runtime, info, result, errorCode, durationOf(info, performance.now()));
    }
    return resultBlock(info, result);
  },
  { reportsDuration: false },
);

/** Ends a call as `dispatchDetailed` answers: the block, the result with its details, the error code, the duration. */
export const endToolCallDetailed: CallEnding<ToolCallOutcome> = Object.assign(
  (
    runtime: CallRuntime,
    info: CallInfo,
    result: ToolResult,
    errorCode: ToolCallErrorCode | undefined,
    pending?: ApprovalRequest,
  ): ToolCallOutcome => detailedEnd(runtime, info, result, errorCode, pending),
  { reportsDuration: true },
);

function detailedEnd(
  runtime: CallRuntime,
  info: CallInfo,
  result: ToolResult,
  errorCode: ToolCallErrorCode | undefined,
  pending: ApprovalRequest | undefined,
): ToolCallOutcome {
  const ended = performance.now();
  const durationMs = durationOf(info, ended);
  info.watch?.end(result, pending === undefined ? errorCode : undefined, ended, pending !== undefined);
  if (pending !== undefined) {
    // Not ended: no tool_execution_end until it is resumed and runs (or is declined).
    return {
      block: resultBlock(info, result),
      result,
      errorCode: "approval-required",
      durationMs,
      pendingApproval: pending,
    };
  }
  if (runtime.emitter.callListeners !== 0 && runtime.emitter.has("tool_execution_end"))
    announceEnd(runtime, info, result, errorCode, durationMs);
  const block = resultBlock(info, result);
  return errorCode === undefined ? { block, result, durationMs } : { block, result, errorCode, durationMs };
}

/**
 * How long the call has taken at `now`. 0 for a call whose start was not read (`CallInfo.started` is NaN): nothing
 * needed it when the call began, and a listener that came during the call cannot be told more.
 */
function durationOf(info: CallInfo, now: number): number {
  return Number.isNaN(info.started) ? 0 : now - info.started;
}

function announceEnd(
  runtime: CallRuntime,
  info: CallInfo,
  result: ToolResult,
  errorCode: ToolCallErrorCode | undefined,
  durationMs: number,
): void {
  runtime.emitter.emit("tool_execution_end", {
    toolCallId: info.id,
    toolName: info.name,
    durationMs,
    isError: result.isError === true,
    ...(errorCode === undefined ? {} : { errorCode }),
    result,
  });
}

function resultBlock(info: CallInfo, result: ToolResult): ToolResultBlock {
  return result.isError === true
    ? { type: "tool_result", tool_use_id: info.id, content: result.content, is_error: true }
    : { type: "tool_result", tool_use_id: info.id, content: result.content };
}
