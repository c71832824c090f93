// What an executor gets besides its input: its call's id, abort signal, progress, log, phases and span.

import type { Approvals } from "../approve/approvals.js";
import { copyJson } from "../copy-json.js";
import { cutText, describeThrown, SessionError } from "../errors.js";
import { isRecord } from "../json.js";
import { normalizeToolResult } from "../tool-result.js";
import type {
  DispatchOptions,
  JsonValue,
  ToolCallContext,
  ToolCallOutcome,
  ToolCallPause,
  ToolCallResumption,
  ToolCallSpan,
  ToolLogEvent,
  ToolLogLevel,
  ToolQuestion,
  ToolQuestionAnswer,
  ToolResult,
  TraceContext,
} from "../types.js";
import { type AskingCall, questionAsker } from "./ask-question.js";
import type { CallWatch } from "./call-watch.js";
import type { SessionEmitter } from "./events.js";
import { LazyAbortSignal } from "./lazy-abort-signal.js";

/** The call a context belongs to (its state's id and tool name never change). */
interface ContextCall {
  readonly state: { readonly id: string; readonly toolName: string };
  readonly watch: CallWatch | undefined;
  /** Set when the call runs again after its executor paused it (`session.approvals.resume`). */
  readonly resumed?: ResumedCall | undefined;
}

/** A call run again after a pause: what its executor left, and its paused nested call with the decision. */
export interface ResumedCall extends Omit<ToolCallResumption, "runPausedCall"> {
  /** Ends the paused nested call as decided, with these options; once. */
  runPausedCall(options: DispatchOptions): Promise<ToolCallOutcome>;
}

/**
 * The context of one executor run: its abort (`signal`, `onAbort`, `abort`) is a `LazyAbortSignal`. Nothing it offers
 * throws, and no listener it calls can break the executor: a listener that throws is reported as an `error` event
 * (`listener-failed`). Once the call has its outcome (`finished`), progress, logs and phases are dropped.
 */
export class CallContext extends LazyAbortSignal implements ToolCallContext {
  finished = false;
  readonly toolCallId: string;
  readonly span: ToolCallSpan | undefined;
  /** What `suspend` was given, once it accepted it: the call then ends paused. */
  suspension: ToolCallPause | undefined;
  readonly suspend: ((pause: ToolCallPause) => boolean) | undefined;
  readonly resumption: ToolCallResumption | undefined;
  readonly idempotencyKey: string | undefined;
  readonly checkpoint: ((item: JsonValue) => Promise<void>) | undefined;
  readonly recovered: readonly JsonValue[] | undefined;
  readonly ask: ((question: ToolQuestion) => Promise<ToolQuestionAnswer>) | undefined;

  constructor(
    private readonly emitter: SessionEmitter,
    private readonly call: ContextCall,
    /** The caller's own listeners for this call (`onUpdate`, `onLog`). */
    private readonly options: DispatchOptions | undefined,
    /** The call as its questions (`ask`) show it, and the session's approvals; without it, no `ask`. */
    asking?: { readonly call: AskingCall; readonly approvals: Approvals | undefined },
  ) {
    super();
    this.ask =
      asking === undefined
        ? undefined
        : questionAsker(asking.call, asking.approvals, emitter, options, () => this.signal);
    this.toolCallId = call.state.id;
    this.span = call.watch?.span;
    this.idempotencyKey = typeof options?.runId === "string" ? `${options.runId}:${call.state.id}` : undefined;
    this.suspend = options?.pauseForApproval === true ? (pause) => this.#suspend(pause) : undefined;
    const keep = options?.checkpoint;
    this.checkpoint = keep === undefined ? undefined : (item) => this.#checkpoint(keep, item);
    const recovered = options?.recovered;
    this.recovered =
      isRecord(recovered) && Object.hasOwn(recovered, call.state.id) ? recovered[call.state.id] : undefined;
    const { resumed } = call;
    this.resumption =
      resumed === undefined
        ? undefined
        : {
            continuation: resumed.continuation,
            request: resumed.request,
            decision: resumed.decision,
            runPausedCall: () => resumed.runPausedCall(this.nestedDispatchOptions()),
          };
  }

  #suspend(pause: ToolCallPause): boolean {
    if (this.finished || this.suspension !== undefined) return false;
    // The pause is kept as plain JSON (a run state holds it), read once: anything else is refused, not thrown.
    const copied = copyJson(pause, "the pause");
    if (!copied.ok || !isRecord(copied.value) || !isRecord(copied.value.request)) return false;
    if (!Object.hasOwn(copied.value, "continuation")) return false;
    this.suspension = copied.value as unknown as ToolCallPause;
    return true;
  }

  /** The item kept, as a JSON copy; rejects for an item that is not JSON data, or when the caller could not keep it. */
  async #checkpoint(keep: NonNullable<DispatchOptions["checkpoint"]>, item: JsonValue): Promise<void> {
    const copied = copyJson(item, "the checkpoint");
    if (!copied.ok) throw new TypeError(`context.checkpoint takes JSON data: ${copied.problem}`);
    const { id, toolName } = this.call.state;
    await keep({ toolCallId: id, toolName }, copied.value as JsonValue);
  }

  /** A malformed partial is dropped. An arrow: executors take it out of the context (`{ onUpdate }`). */
  readonly onUpdate = (partial: ToolResult): void => {
    const { emitter, call } = this;
    const progress = this.options?.onUpdate;
    const listened = emitter.has("tool_execution_update");
    if (this.finished || (!listened && progress === undefined)) return;
    const normalized = normalizeToolResult(partial);
    if (typeof normalized === "string") return;
    if (listened) {
      const { id, toolName } = call.state;
      emitter.emit("tool_execution_update", { toolCallId: id, toolName, partial: normalized });
    }
    if (progress !== undefined) this.#callListener("onUpdate", () => progress(normalized));
  };

  /** A bad level or data that is not JSON is dropped. An arrow, like `onUpdate`. */
  readonly log = (level: ToolLogLevel, data: JsonValue, logger?: string): void => {
    const { emitter, call, options } = this;
    const listened = emitter.has("tool_log");
    if (this.finished || (!listened && options?.onLog === undefined)) return;
    const entry = readLogEntry(call, level, data, logger);
    if (entry === undefined) return;
    if (listened) emitter.emit("tool_log", entry);
    this.#callListener("onLog", () => options?.onLog?.(entry));
  };

  /** The options for calls the executor makes through the session on this call's behalf (`ToolCallContext`). */
  nestedDispatchOptions(): DispatchOptions {
    const { options } = this;
    const traceContext = this.#traceContext();
    const nested: {
      -readonly [K in keyof DispatchOptions]: DispatchOptions[K];
    } = { signal: this.signal, parentToolCallId: this.toolCallId, keepWholeResult: true };
    if (options?.approver !== undefined) nested.approver = options.approver;
    if (options?.ask !== undefined) nested.ask = options.ask;
    if (options?.pauseForApproval === true) nested.pauseForApproval = true;
    // Nested calls of a durable run have keys of their own (`<runId>:<their id>`).
    if (options?.runId !== undefined) nested.runId = options.runId;
    if (traceContext !== undefined) nested.traceContext = traceContext;
    return nested;
  }

  /** A stretch of the executor's own work (such as `sandbox_start`), from `start` until now. */
  phase(name: string, start: number): void {
    const { watch } = this.call;
    if (watch === undefined || this.finished || typeof name !== "string" || typeof start !== "number") return;
    watch.phase(cutText(name, 100), Math.min(start, performance.now()), performance.now(), undefined, true);
  }

  /** The call's span as a parent for other calls; `undefined` without telemetry, or if the tracer fails. */
  #traceContext(): TraceContext | undefined {
    try {
      return this.span?.traceContext();
    } catch {
      return undefined;
    }
  }

  reportAbortListener(error: unknown): void {
    this.#reportListener(`An abort listener of tool ${this.call.state.toolName}`, error);
  }

  #callListener(which: "onUpdate" | "onLog", call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#reportListener(`An ${which} listener of a dispatch`, error);
    }
  }

  #reportListener(which: string, error: unknown): void {
    const { id, toolName } = this.call.state;
    this.emitter.emit("error", {
      code: "listener-failed",
      error: new SessionError("listener-failed", `${which} threw: ${describeThrown(error)}`, { cause: error }),
      toolCallId: id,
      toolName,
    });
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
function readLogEntry(call: ContextCall, level: unknown, data: unknown, logger: unknown): ToolLogEvent | undefined {
  if (typeof level !== "string" || !LOG_LEVELS.has(level)) return undefined;
  const copied = copyJson(data, "the log data");
  if (!copied.ok) return undefined;
  const { id, toolName } = call.state;
  const entry = { toolCallId: id, toolName, level: level as ToolLogLevel, data: copied.value as JsonValue };
  return typeof logger === "string" ? { ...entry, logger: cutText(logger, 200) } : entry;
}
