// One dispatch: the model's call going in, its options, and the block and outcome coming back.

import type { ApprovalOptions, ApprovalRequest } from "./approvals.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { AskedQuestion, ToolQuestionAnswer } from "./questions.js";
import type { ContentBlock, ToolResult } from "./result.js";
import type { TraceContext } from "./telemetry.js";
import type { ToolLogEvent } from "./tool-log.js";

/** A model's request to call a tool. `input` is untrusted: an object, JSON text, or anything else. */
export interface ToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** What `dispatch` gives back, in Anthropic's shape (the adapters convert it for the other providers). */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ContentBlock[];
  is_error?: boolean;
}

/** Options of one `dispatch` (or `dispatchAll`) call. */
export interface DispatchOptions {
  readonly signal?: AbortSignal;
  /**
   * This call's progress (`context.onUpdate` of its executor), as `tool_execution_update` events carry it. Must not
   * throw.
   */
  readonly onUpdate?: (partial: ToolResult) => void;
  /** This call's log messages (`context.log` of its executor), as `tool_log` events carry them. */
  readonly onLog?: (entry: ToolLogEvent) => void;
  /**
   * Who approves this call, when the session's approvals require it: wins over `approvals.approver` (the
   * MCP server passes one that asks the client which made the call). Without either, `approval-required`.
   */
  readonly approver?: ApprovalOptions["approver"];
  /**
   * Answers the questions a call's executor asks while it runs (`context.ask`: an MCP server's elicitation, bridged),
   * with a form: the MCP server passes one that asks the client which made the call. Wins over the approvers, which
   * can only say yes or no. Passed on to the calls an executor makes.
   */
  readonly ask?: (
    question: AskedQuestion,
    context: { readonly signal: AbortSignal },
  ) => ToolQuestionAnswer | Promise<ToolQuestionAnswer>;
  /**
   * For a loop that can wait (`runAgent` sets it): a call that needs approval, with no approver to ask,
   * does not end with `approval-required` but is left pending. Its outcome carries `pendingApproval`,
   * and `session.approvals.resume` runs it once a person decided. Only `dispatchDetailed` and
   * `dispatchAllDetailed` can hand the request back; `dispatch` answers `approval-required`.
   */
  readonly pauseForApproval?: boolean;
  /**
   * The trace this call belongs to, from another process (the MCP server takes it from a request's `_meta`):
   * with telemetry, the call's span becomes a child of it. Ignored when malformed.
   */
  readonly traceContext?: TraceContext;
  /**
   * The id of the call whose program made this call (code mode's `run_code`): announced on the call's
   * `tool_execution_start`, `tool_call_phase` and `tool_execution_end` events, its hook events and its
   * approval request, so a listener, a hook or an approver knows the call runs inside a program.
   */
  readonly parentToolCallId?: string;
  /**
   * For a caller that is a program, not a model: the result is never cut or saved to a file by the session's
   * result budget (`maxResultChars`, a tool's own); the caller gets it whole.
   */
  readonly keepWholeResult?: boolean;
  /**
   * Awaited just before a call's executor starts (after its hooks and approval), with the input it runs with: a
   * durable loop records the start there (docs/durable-runs.md). A throw or a rejection ends the call unrun
   * (`execution-failed`). Not passed on to the calls an executor makes.
   */
  readonly beforeExecute?: (call: {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: JsonObject;
  }) => void | Promise<void>;
  /** The durable run the calls belong to: each executor's `context.idempotencyKey` is `<runId>:<toolCallId>`. */
  readonly runId?: string;
  /**
   * Keeps what a call's executor notes with `context.checkpoint` (a durable loop journals it); each executor gets
   * `context.checkpoint` only with it. Not passed on to the calls an executor makes.
   */
  readonly checkpoint?: (
    call: { readonly toolCallId: string; readonly toolName: string },
    item: JsonValue,
  ) => Promise<void>;
  /** What calls, by id, kept with `context.checkpoint` in a process that died: each one's executor gets `context.recovered`. */
  readonly recovered?: Readonly<Record<string, readonly JsonValue[]>>;
}

/**
 * One call's whole outcome, from `dispatchDetailed`: the block `dispatch` would return, and what a
 * program needs beside it, without listening on the session's events for its own call.
 */
export interface ToolCallOutcome {
  /** Exactly what `dispatch` returns for the call. */
  readonly block: ToolResultBlock;
  /** The final result, `details` included. */
  readonly result: ToolResult;
  /** Why the call failed, when it failed before or in the executor; absent when the tool itself returned `isError`. */
  readonly errorCode?: ToolCallErrorCode;
  readonly durationMs: number;
  /**
   * Set when the call was paused for approval (`pauseForApproval`): the call did not run and has not
   * ended. `block` is then a stand-in (`approval-required`) that must not reach the model; resume the
   * call with `session.approvals.resume`.
   */
  readonly pendingApproval?: ApprovalRequest;
  /**
   * With `pendingApproval`, when the executor paused the call for a nested call's approval (`context.suspend`):
   * what it needs to go on. Keep it with the request; `session.approvals.resume` gives it back.
   */
  readonly continuation?: JsonValue;
}

/** Why a call produced an error result instead of running to completion. */
export type ToolCallErrorCode =
  | "tool-not-found"
  | "invalid-input"
  | "blocked-by-hook"
  | "execution-failed"
  | "invalid-result"
  | "timeout"
  | "aborted"
  | "approval-required"
  | "approval-declined"
  | "approval-expired"
  /** Flow rules refused a guarded call while untrusted content was in the session (`whenTainted` block). */
  | "flow-blocked"
  /** The session's call policy (`flow.policy`, e.g. Cedar) denied the call: the message names the rule. */
  | "policy-denied"
  /** A durable run's process died while the call ran, and its tool is not idempotent: it may or may not have run. */
  | "outcome-unknown"
  /** A `run_code` program does not parse (code mode). */
  | "code-syntax-error"
  /** A `run_code` program threw and did not catch it: its message and the program line. */
  | "code-runtime-error"
  /** A `run_code` program ran past its `timeoutMs` and was stopped. */
  | "code-timeout"
  /** A `run_code` program used more than its `memoryBytes` and was stopped. */
  | "code-memory-exceeded"
  /** A `run_code` program made more than its `maxToolCalls` calls. */
  | "code-too-many-calls"
  /** A resumed `run_code` program asked for another call than the one its ledger holds at that step. */
  | "code-replay-diverged";
