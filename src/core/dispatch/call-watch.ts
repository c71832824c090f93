// What watches a call beyond its start and end events: its phases (`tool_call_phase`) and, with telemetry, its span.
// Made only when someone listens for phases or the session has telemetry; otherwise a call is not timed at all.
import type { AgentTool, ToolCallErrorCode, ToolCallPhase, ToolCallSpan, ToolResult, TraceContext } from "../types.js";
import type { SessionEmitter } from "./events.js";

/**
 * One call's trace in a telemetry backend (the OpenTelemetry one is in src/telemetry). Times are
 * `performance.now()` readings.
 */
export interface CallTrace {
  readonly span: ToolCallSpan;
  phase(phase: ToolCallPhase, start: number, end: number, errorCode: ToolCallErrorCode | undefined): void;
  /** Runs `work` with the call's span as the active one, so that spans started inside are its children. */
  enter<T>(work: () => T): T;
  /** The call ended, or `paused` for a person's approval (it has not run, and did not fail). */
  end(result: ToolResult, errorCode: ToolCallErrorCode | undefined, end: number, paused: boolean): void;
}

/** A session's telemetry: one trace per dispatched call. */
export interface CallTelemetry {
  /** `tool` is the active tool of that name, when there is one; `parent` a trace context from another process. */
  begin(
    call: { readonly id: string; readonly name: string; readonly started: number; readonly input: unknown },
    tool: AgentTool | undefined,
    parent: TraceContext | undefined,
  ): CallTrace;
}

/** What the call's life reports to its watch, in order. */
export interface CallWatch {
  /** The call's span for its executor (`context.span`); `undefined` without telemetry. */
  readonly span: ToolCallSpan | undefined;
  /**
   * A phase ended. `nested` marks one the executor reported (inside `execute`); the others follow one another,
   * and a gap before one is reported as `queued`.
   */
  phase(phase: ToolCallPhase, start: number, end: number, errorCode?: ToolCallErrorCode, nested?: boolean): void;
  enter<T>(work: () => T): T;
  /** The call ended, or `paused` for approval; only the first call counts. */
  end(result: ToolResult, errorCode: ToolCallErrorCode | undefined, end: number, paused?: boolean): void;
}

/** A wait shorter than this (ms) between two phases is the promise chain passing the call on, not queueing. */
const QUEUED_MIN_MS = 1;

/** The watch of a call that has just started, for a session with telemetry or a `tool_call_phase` listener. */
export function watchCall(
  runtime: {
    readonly emitter: SessionEmitter;
    readonly telemetry: CallTelemetry | undefined;
    activeTools(): ReadonlyMap<string, AgentTool>;
  },
  call: {
    readonly id: string;
    readonly name: string;
    readonly started: number;
    readonly input: unknown;
    readonly parentToolCallId: string | undefined;
  },
  parent: TraceContext | undefined,
): CallWatch {
  const trace = runtime.telemetry?.begin(call, runtime.activeTools().get(call.name), parent);
  return new PhaseWatch(runtime.emitter, call, trace);
}

class PhaseWatch implements CallWatch {
  /** Where the last sequential phase ended: a later one starting after it waited (`queued`). */
  #last: number;
  #ended = false;

  constructor(
    private readonly emitter: SessionEmitter,
    private readonly call: {
      readonly id: string;
      readonly name: string;
      readonly started: number;
      readonly parentToolCallId: string | undefined;
    },
    private readonly trace: CallTrace | undefined,
  ) {
    this.#last = call.started;
  }

  get span(): ToolCallSpan | undefined {
    return this.trace?.span;
  }

  phase(phase: ToolCallPhase, start: number, end: number, errorCode?: ToolCallErrorCode, nested = false): void {
    if (this.#ended) return;
    if (!nested) {
      if (start - this.#last >= QUEUED_MIN_MS) this.#report("queued", this.#last, start, undefined);
      this.#last = Math.max(this.#last, end);
    }
    this.#report(phase, start, end, errorCode);
  }

  enter<T>(work: () => T): T {
    return this.trace === undefined ? work() : this.trace.enter(work);
  }

  end(result: ToolResult, errorCode: ToolCallErrorCode | undefined, end: number, paused = false): void {
    if (this.#ended) return;
    this.#ended = true;
    this.trace?.end(result, errorCode, end, paused);
  }

  #report(phase: ToolCallPhase, start: number, end: number, errorCode: ToolCallErrorCode | undefined): void {
    this.trace?.phase(phase, start, end, errorCode);
    if (!this.emitter.has("tool_call_phase")) return;
    const { id, name, parentToolCallId } = this.call;
    this.emitter.emit("tool_call_phase", {
      toolCallId: id,
      toolName: name,
      phase,
      startedAt: performance.timeOrigin + start,
      durationMs: Math.max(0, end - start),
      ...(errorCode === undefined ? {} : { errorCode }),
      ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
    });
  }
}
