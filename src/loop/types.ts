// The agent loop's vocabulary: its options, the events it streams, and why it stopped.
import type { AgentSession } from "../core/dispatch/session.js";
import type { ApprovalDecision, ApprovalRequest, ToolCallErrorCode, ToolResultBlock } from "../core/types.js";
import type { RunJournal } from "../journal/run-journal.js";
import type { ModelClient, ModelStopReason, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import type { AgentRunState } from "./run-state.js";

/** Everything `runAgent` takes. */
export interface RunAgentOptions {
  readonly session: AgentSession;
  readonly model: ModelClient;
  /** The user's message that starts the run. */
  readonly prompt: string;
  /** The conversation so far, to continue it; the prompt is appended to it. Default: none. */
  readonly messages?: readonly TranscriptMessage[];
  /** The most model turns to run. Default 20. */
  readonly maxTurns?: number;
  /** Aborts the model request and the running tool calls; every call already announced still gets a result. */
  readonly signal?: AbortSignal;
  /**
   * Also list the active tools in the system prompt (`session.systemPrompt`: the base prompt and a tool section).
   * Default false: the model gets the prompt as the session was given it (`session.baseSystemPrompt`) and the tools
   * in the provider's tools payload only, so the list is not sent twice every turn.
   */
  readonly toolsInSystemPrompt?: boolean;
  /**
   * Where the run is journaled (docs/durable-runs.md), with `runId`: each model answer before it is acted on, each
   * call's start before its executor runs and its outcome after. A `runId` whose journal has entries resumes: finished
   * turns are not asked again and finished calls not run again.
   */
  readonly journal?: RunJournal;
  /** The run's id in `journal`: required with it. */
  readonly runId?: string;
  /**
   * With `journal`: decisions by approval id for the calls a paused run waits for (its `approval_required` event's
   * requests). Each is journaled before it is acted on, so it applies once; calls without one wait again.
   */
  readonly decisions?: Readonly<Record<string, ApprovalDecision>>;
}

/**
 * Why a run ended: the model answered without calling tools (`completed`), `max_turns` was reached, the signal
 * aborted it, a model turn failed (`model_error`, see the `error` event), or calls wait for a person's
 * approval and nobody here could be asked (`awaiting_approval`: resume from the `done` event's `state`, or, for a
 * journaled run, from its journal with `decisions`). With a
 * journal: the journal failed (`journal_error`, see the `error` event), or another live process continues the run
 * (`held_elsewhere`).
 */
export type AgentStopReason =
  | "completed"
  | "max_turns"
  | "aborted"
  | "model_error"
  | "awaiting_approval"
  | "journal_error"
  | "held_elsewhere";

/**
 * What `runAgent` (and `resumeAgent`, for the turns it runs) streams, in this order per turn: turn_start, then
 * model_text_delta and model_tool_call_delta interleaved as the model writes, model_text, usage, tool_call...,
 * tool_result..., turn_end; a turn that pauses for approval ends with approval_required and done instead of turn_end.
 */
export type AgentEvent =
  | { readonly type: "turn_start"; readonly turn: number }
  /** A piece of the model's text as it arrives (clients that do not stream send one piece). */
  | { readonly type: "model_text_delta"; readonly turn: number; readonly text: string }
  /**
   * A piece of a tool call as a streaming client reads it (`ToolCallDelta`: `index` among the turn's calls, `id` and
   * `name` when the call is announced, more `argumentsDelta` text). Clients that do not stream send none; the
   * `tool_call` events that follow carry the calls whole.
   */
  | {
      readonly type: "model_tool_call_delta";
      readonly turn: number;
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    }
  /** The whole text of the turn, when there is any. */
  | { readonly type: "model_text"; readonly turn: number; readonly text: string }
  | { readonly type: "usage"; readonly turn: number; readonly usage: ModelUsage; readonly total: ModelUsage }
  | { readonly type: "tool_call"; readonly turn: number; readonly call: ToolCall }
  | {
      readonly type: "tool_result";
      readonly turn: number;
      readonly call: ToolCall;
      readonly result: ToolResultBlock;
      /**
       * How long the call took, and why it failed when it failed before or in its executor (from
       * `dispatchAllDetailed`).
       */
      readonly durationMs?: number;
      readonly errorCode?: ToolCallErrorCode;
    }
  | {
      readonly type: "turn_end";
      readonly turn: number;
      readonly stopReason: ModelStopReason | "aborted" | "error";
      readonly toolCalls: number;
    }
  | { readonly type: "error"; readonly turn: number; readonly error: Error }
  /** Calls of this turn wait for a person's approval: the run pauses (then `done`, `awaiting_approval`). */
  | { readonly type: "approval_required"; readonly turn: number; readonly requests: readonly ApprovalRequest[] }
  | {
      readonly type: "done";
      readonly reason: AgentStopReason;
      readonly turns: number;
      readonly usage: ModelUsage;
      /**
       * The whole conversation: every tool call in it has its result, except, when the run awaits
       * approval, the calls of its last assistant message (their results travel in `state`).
       */
      readonly transcript: readonly TranscriptMessage[];
      readonly error?: Error;
      /**
       * With `awaiting_approval`: the signed state to give `resumeAgent`, as plain JSON. Absent for a journaled run:
       * its journal keeps the pause, and `runAgent` with its `runId` and `decisions` resumes it.
       */
      readonly state?: AgentRunState;
    };

/** Everything `resumeAgent` takes. */
export interface ResumeAgentOptions {
  /** A session built as the paused one was: the same tools, and approvals with the same `secret`. */
  readonly session: AgentSession;
  readonly model: ModelClient;
  /** The `state` of the paused run's `done` event, as it was handed out (it may have been stored as JSON). */
  readonly state: AgentRunState;
  /** Decisions by approval id; pending approvals without one stay pending and the run pauses again. */
  readonly decisions: Readonly<Record<string, ApprovalDecision>>;
  /** The most model turns of the whole run, counting those before the pause. Default: the paused run's. */
  readonly maxTurns?: number;
  readonly signal?: AbortSignal;
  /**
   * Also list the active tools in the system prompt (`session.systemPrompt`: the base prompt and a tool section).
   * Default false: the model gets the prompt as the session was given it (`session.baseSystemPrompt`) and the tools
   * in the provider's tools payload only, so the list is not sent twice every turn.
   */
  readonly toolsInSystemPrompt?: boolean;
}
