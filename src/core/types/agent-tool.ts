// A tool the session runs: its definition and the context its executor gets.
import type { ApprovalDecision, ApprovalRequest } from "./approvals.js";
import type { ToolDescriptor } from "./descriptor.js";
import type { DispatchOptions, ToolCallOutcome } from "./dispatch.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { ToolPin } from "./pins.js";
import type { ToolQuestion, ToolQuestionAnswer } from "./questions.js";
import type { ToolResult } from "./result.js";
import type { ToolCallSpan } from "./telemetry.js";
import type { ToolLogLevel } from "./tool-log.js";

/** What an executor gets besides its input. */
export interface ToolCallContext {
  readonly toolCallId: string;
  /** Aborted on timeout, on the caller's abort, or when the session gives up on the call. */
  readonly signal: AbortSignal;
  /** Streams a partial result; it reaches `tool_execution_update` listeners, never the model. */
  onUpdate(partial: ToolResult): void;
  /**
   * Sends a log message about this call; it reaches `tool_log` listeners and the dispatch's `onLog`
   * (an MCP client, through `serve`), never the model. Never throws. Sessions always provide it; it is
   * optional for contexts made by hand.
   */
  log?(level: ToolLogLevel, data: JsonValue, logger?: string): void;
  /**
   * Reports a stretch of the executor's own work, from `start` (a `performance.now()` reading) until now, as a
   * phase of the call (the built-in `bash` reports `sandbox_start`): it reaches `tool_call_phase` listeners and,
   * with telemetry, becomes a child span. Never throws. Optional for contexts made by hand.
   */
  phase?(name: string, start: number): void;
  /**
   * Calls `listener` once, with the abort's reason, when the call is aborted (at once if it already was) for
   * the same causes as `signal`; returns a function that removes it. Cheaper than `signal` for an executor that
   * only needs to hear of an abort: a session makes its signal on first read, and an AbortController costs
   * several microseconds in Node 20. Optional: contexts made by hand may leave it out.
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
  /**
   * The call's span, when the session has telemetry (docs/telemetry.md): start child spans of your own work under it,
   * and pass its trace context on to a server you call. `undefined` without telemetry.
   */
  readonly span?: ToolCallSpan;
  /**
   * For a call of a durable run (`runAgent` with a journal): `<runId>:<toolCallId>`, the same every time this call
   * runs, in any process. Give it to the system the tool changes so a repeated request does nothing twice.
   */
  readonly idempotencyKey?: string;
  /**
   * The options for calls this executor makes through the same session on its call's behalf (code mode's programs):
   * this call's `signal` (aborting it aborts them), the outer dispatch's `approver`, `ask` and `pauseForApproval`,
   * `parentToolCallId` (this call's id), the trace context of this call's span (their spans are its children) and
   * `keepWholeResult`. With `pauseForApproval`, a nested call can come back with `pendingApproval`: an executor that
   * passes these options must handle it. A new object each time. Sessions always provide it; it is optional for
   * contexts made by hand.
   */
  nestedDispatchOptions?(): DispatchOptions;
  /**
   * Ends this call paused, waiting for a person's decision on `pause.request` (a nested call's, with
   * `pendingApproval`): the call's outcome gets `pendingApproval` (that request) and `continuation` (plain JSON:
   * what the executor needs to go on), and whatever the executor then returns is dropped. Present only when the
   * caller can pause (`pauseForApproval`). True when the call will pause; false (nothing changes) once the call
   * has its outcome or when `continuation` is not JSON data. Never throws.
   */
  suspend?(pause: ToolCallPause): boolean;
  /**
   * Set when this call runs again after such a pause (`session.approvals.resume`): the continuation it left, and
   * the decision on the paused nested call. `undefined` for every other run.
   */
  readonly resumption?: ToolCallResumption;
  /**
   * For a call of a durable run (docs/durable-runs.md): keeps `item` (plain JSON) in the run's journal, resolving once
   * it is durable. When the process dies before the call ends, the resumed run runs the call again with every item
   * kept, in order, as `recovered`, instead of ending it `outcome-unknown`: for executors that can go on from their
   * own record (code mode's programs). Absent when the caller keeps no journal. Rejects when `item` is not JSON data
   * or could not be kept.
   */
  checkpoint?(item: JsonValue): Promise<void>;
  /** Set when this call runs again after the process running it died: the items it kept then (`checkpoint`), in order. */
  readonly recovered?: readonly JsonValue[];
  /**
   * Asks the person behind this call a question while it runs (docs/approvals.md#questions-from-tools): the caller's
   * `ask` answers it with the form (the MCP client that made the call, through `serve`); else the approver (the
   * dispatch's, else the session's) is asked for a yes or no, which accepts with the form's defaults or declines.
   * Absent when nobody can answer. Rejects with a `ToolCallError` `approval-required` when only a yes or no could
   * answer and the form needs a field without a default, and with `aborted` when the call is aborted first.
   */
  ask?(question: ToolQuestion): Promise<ToolQuestionAnswer>;
}

/** What `ToolCallContext.suspend` hands back to the caller. */
export interface ToolCallPause {
  /** The nested call's approval request (its `pendingApproval`): a person approves that call's exact input. */
  readonly request: ApprovalRequest;
  readonly continuation: JsonValue;
}

/** A call resumed after `suspend`: its continuation, and its paused nested call with the decision on it. */
export interface ToolCallResumption {
  readonly continuation: JsonValue;
  readonly request: ApprovalRequest;
  readonly decision: ApprovalDecision;
  /**
   * Ends the paused nested call as decided (its approval id is already claimed): approved, it runs exactly the
   * request's input, without before hooks (they ran before the pause), through the after hooks; declined, it ends
   * with `approval-declined`. The first call only; later ones give an `execution-failed` outcome. Never rejects.
   */
  runPausedCall(): Promise<ToolCallOutcome>;
}

/** How `dispatchAll` runs a tool: beside the others (`parallel`, the default) or alone (`sequential`). */
export type ToolExecutionMode = "parallel" | "sequential";

/** A tool the session can run. `execute` may return a string (one text block) and signals failure by throwing. */
export interface AgentTool<TInput = JsonObject> {
  readonly descriptor: ToolDescriptor;
  readonly executionMode?: ToolExecutionMode;
  readonly timeoutMs?: number;
  /**
   * The most characters of text its results may hold before they are saved to a file and the model gets a preview
   * (docs/dispatch.md#large-results-are-saved-not-sent). Wins over an MCP tool's
   * `_meta["anthropic/maxResultSizeChars"]` and the session's `maxResultChars`.
   */
  readonly maxResultChars?: number;
  /**
   * `true` when running a call twice with the same input and `context.idempotencyKey` has the effect of running it
   * once: a durable run whose process died during the call runs it again (docs/durable-runs.md); otherwise that call
   * ends with `outcome-unknown`.
   */
  readonly idempotent?: boolean;
  /** `"live"`: a replayed run (docs/replay.md) runs its calls for real instead of answering them from the recording. */
  readonly replay?: "live";
  execute(input: TInput, context: ToolCallContext): Promise<ToolResult | string>;
  /**
   * The id of the remote executor (docs/workers.md) that runs this tool's calls, set by the registry's `executors` on
   * the tools it routes; absent for a tool that runs in the session's process.
   */
  readonly runsOn?: string;
  /**
   * The definition an MCP server listed for this tool, with its fingerprint (set by the MCP bridge): what the
   * registry pins and compares (docs/pins.md). Absent on other tools.
   */
  readonly listedDefinition?: ToolPin;
}
