// The end of a turn whose calls were dispatched: each outcome taken, then the results appended or the run paused.

import type { JsonValue, ToolCallOutcome, ToolResultBlock } from "../core/types.js";
import { MISSING_RESULT_TEXT } from "../providers/shared.js";
import type { ToolCall } from "../providers/types.js";
import type { LoopRun, TurnCalls } from "./loop-run.js";
import { type PendingCall, sealRunState } from "./run-state.js";
import type { AgentEvent, AgentStopReason } from "./types.js";

/**
 * Records outcomes of some of a turn's calls, in their order: each result's event goes to `events`, each paused
 * call joins `pending`. A session-like object without `dispatchAllDetailed` gives blocks only. (Events are
 * collected, not yielded by a generator of its own: delegating to one adds a step to every event.)
 */
export function takeOutcomes(
  run: LoopRun,
  into: TurnCalls,
  positions: readonly number[],
  outcomes: readonly Partial<ToolCallOutcome>[],
  events: AgentEvent[],
): void {
  for (let index = 0; index < positions.length; index++) {
    const position = positions[index] as number;
    const call = into.calls[position] as ToolCall;
    const outcome = outcomes[index];
    if (outcome?.pendingApproval !== undefined) {
      const { pendingApproval: request, continuation } = outcome;
      into.pending.push(continuation === undefined ? { request, position } : { request, position, continuation });
      continue;
    }
    const block =
      outcome?.block?.tool_use_id === call.id
        ? outcome.block
        : outcomes.find((other) => other?.block?.tool_use_id === call.id)?.block;
    const result = block ?? missingResult(call);
    into.results[position] = result;
    const event: { -readonly [K in keyof ToolResultEvent]: ToolResultEvent[K] } = {
      type: "tool_result",
      turn: run.turn,
      call,
      result,
    };
    if (outcome?.durationMs !== undefined) event.durationMs = outcome.durationMs;
    if (outcome?.errorCode !== undefined) event.errorCode = outcome.errorCode;
    events.push(event);
  }
}

/**
 * Ends a turn whose calls were dispatched: pauses when approvals wait (the calls stay unanswered in the
 * state; "stopped"), else appends the results ("next": then `stopAfterTurn` decides whether another turn runs).
 * Its events go to `events`.
 */
export function endTurn(run: LoopRun, dispatched: TurnCalls, events: AgentEvent[]): "stopped" | "next" {
  const { session, signal } = run.options;
  const { calls, results, pending, stopReason } = dispatched;
  if (pending.length > 0 && !signal?.aborted) {
    const state =
      session.approvals === undefined
        ? undefined
        : sealRunState(session.approvals, {
            turn: run.turn,
            maxTurns: run.maxTurns,
            usage: run.total,
            stopReason,
            transcript: run.transcript,
            results: calls.map((_call, index) => results[index] ?? null),
            pending: pending.map(({ request }) => request),
            ...continuationsOf(pending),
            ...(session.flow?.tainted === true ? { taint: session.flow.sources } : {}),
          });
    if (state !== undefined) {
      events.push({ type: "approval_required", turn: run.turn, requests: pending.map(({ request }) => request) });
      events.push({ ...finish(run, "awaiting_approval"), state });
      return "stopped";
    }
  }
  // Aborted while approvals waited, or a state that cannot be kept: those calls end here, unrun.
  for (const { position } of pending.splice(0)) {
    const call = calls[position] as ToolCall;
    const result = unrunResult(call, signal?.aborted === true);
    results[position] = result;
    const errorCode = signal?.aborted === true ? "aborted" : "approval-required";
    events.push({ type: "tool_result", turn: run.turn, call, result, errorCode });
  }
  run.transcript.push({ role: "tool", results: calls.map((call, index) => results[index] ?? missingResult(call)) });
  events.push({ type: "turn_end", turn: run.turn, stopReason, toolCalls: calls.length });
  return "next";
}

/** The continuations of calls their executors paused, by approval id; nothing when there are none. */
function continuationsOf(pending: readonly PendingCall[]): { continuations?: Record<string, JsonValue> } {
  const paused = pending.filter((entry) => entry.continuation !== undefined);
  if (paused.length === 0) return {};
  return {
    continuations: Object.fromEntries(paused.map(({ request, continuation }) => [request.approvalId, continuation])),
  } as { continuations: Record<string, JsonValue> };
}

/**
 * After a turn's events were yielded (the consumer may abort on any of them): the `done` event when the run
 * stops here, aborted or at `maxTurns`; `undefined` when another turn runs.
 */
export function stopAfterTurn(run: LoopRun): AgentEvent | undefined {
  if (run.options.signal?.aborted) return finish(run, "aborted");
  if (run.turn >= run.maxTurns) return finish(run, "max_turns");
  return undefined;
}

/** The run's `done` event: why it stopped, its turns and usage, and a copy of the transcript. */
export function finish(run: LoopRun, reason: AgentStopReason, error?: Error): DoneEvent {
  const done = { type: "done", reason, turns: run.turn, usage: run.total, transcript: [...run.transcript] } as const;
  return error === undefined ? done : { ...done, error };
}

function missingResult(call: ToolCall): ToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: call.id,
    content: [{ type: "text", text: MISSING_RESULT_TEXT }],
    is_error: true,
  };
}

function unrunResult(call: ToolCall, aborted: boolean): ToolResultBlock {
  const text = aborted
    ? `Tool call ${call.name} aborted while it waited for approval; it was not run.`
    : `Tool call ${call.name} needs a person's approval, and this run could not pause for it. It was not run.`;
  return { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }], is_error: true };
}

type ToolResultEvent = Extract<AgentEvent, { type: "tool_result" }>;
type DoneEvent = Extract<AgentEvent, { type: "done" }>;
