// The session's events: a call's start, progress, phases and end, approvals, and trouble that did not stop a call.

import type { ApprovalRequest, ApprovalResolvedEvent } from "./approvals.js";
import type { ToolCallErrorCode } from "./dispatch.js";
import type { FlowSource } from "./flow.js";
import type { ToolResult } from "./result.js";
import type { ToolLogEvent } from "./tool-log.js";

/** `tool_execution_start`: a dispatched call began (refused calls included). */
export interface ToolExecutionStartEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  /** When the call began, in milliseconds since the epoch (fractional). */
  readonly startedAt: number;
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}
/** `tool_execution_update`: a running call reported progress. */
interface ToolExecutionUpdateEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly partial: ToolResult;
}
/** `tool_execution_end`: a call ended, with its result and how long it took. */
export interface ToolExecutionEndEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly durationMs: number;
  readonly isError: boolean;
  /** Why the call failed, when it failed before or in the executor; absent when the tool itself returned `isError`. */
  readonly errorCode?: ToolCallErrorCode;
  /** The final result, `details` included. */
  readonly result: ToolResult;
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}
/**
 * `tool_call_phase`: one stretch of a call's life ended, for waterfalls. Phases, in a call's order: `validate`
 * (finding the tool and checking the input; a refused call ends here), `queued` (waiting for other calls of its
 * batch, or for the write lock), `before_hooks`, `approval` (waiting for a person),
 * `execute` (the executor; the built-in `bash` reports `sandbox_start` inside it, a remote executor
 * `queued_remote`, the time its job waited for a worker), `after_hooks`; an executor may report phases of its own
 * (`context.phase`).
 */
export interface ToolCallPhaseEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly phase: ToolCallPhase;
  /** When it started, in milliseconds since the epoch (fractional). */
  readonly startedAt: number;
  readonly durationMs: number;
  /**
   * Set when the call failed in this phase (a hook blocked it, the executor failed or timed out, a person declined).
   */
  readonly errorCode?: ToolCallErrorCode;
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}

/** The phases of a call that toolwire reports, and any an executor names (`context.phase`). */
export type ToolCallPhase =
  | "validate"
  | "queued"
  | "before_hooks"
  | "approval"
  | "sandbox_start"
  | "queued_remote"
  | "execute"
  | "after_hooks"
  | (string & {});

/** `error`: trouble that did not stop a call (a hook or a listener threw), with the call it happened in. */
export interface SessionErrorEvent {
  readonly code: SessionErrorCode;
  readonly error: Error;
  readonly toolCallId?: string;
  readonly toolName?: string;
}

/** The session's events by name, with the payload each listener gets (`session.on(name, listener)`). */
export interface AgentSessionEvents {
  tool_execution_start: ToolExecutionStartEvent;
  tool_execution_update: ToolExecutionUpdateEvent;
  tool_execution_end: ToolExecutionEndEvent;
  tool_call_phase: ToolCallPhaseEvent;
  tool_log: ToolLogEvent;
  approval_requested: ApprovalRequest;
  approval_resolved: ApprovalResolvedEvent;
  flow_tainted: FlowTaintedEvent;
  error: SessionErrorEvent;
}

/** `flow_tainted`: a call of an untrusted tool returned, and its result is in the session (docs/security.md). */
export interface FlowTaintedEvent extends FlowSource {
  /** Every call that brought untrusted content since the last `session.flow.reset()`, this one last. */
  readonly sources: readonly FlowSource[];
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}

/** Trouble the session reports without stopping a call. */
export type SessionErrorCode = "after-hook-failed" | "listener-failed" | "refresh-failed";
