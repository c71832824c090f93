// Goes on with a run paused for approval: checks the state, applies each decision once, runs what was approved.
import { ApprovalError } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import { endTurn, stopAfterTurn, takeOutcomes } from "./end-turn.js";
import { AgentLoopError } from "./errors.js";
import type { LoopRun, TurnCalls } from "./loop-run.js";
import { openRunState, type PendingCall } from "./run-state.js";
import { turns } from "./turns.js";
import type { AgentEvent, ResumeAgentOptions } from "./types.js";

/**
 * Resumes a run that ended with `awaiting_approval`, in this process or another whose session has the
 * same tools and `approvals.secret`. Throws at once `ApprovalError` `approval-state-invalid` for a state
 * whose signature does not verify and `approval-unknown` for a decision naming no pending approval; the
 * first step rejects with `approval-used` when an approval was already decided (nothing ran then).
 * Decided calls end as decided (approved ones run exactly the approved input); undecided ones pause
 * again; once every call of the paused turn has its result, the run goes on as `runAgent` does.
 */
export function resumeAgent(options: ResumeAgentOptions): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  if (!isRecord(options))
    throw new AgentLoopError("invalid-options", "resumeAgent needs { session, model, state, decisions }");
  const { session, model, decisions, maxTurns } = options;
  if (!isRecord(session) || typeof session.dispatchAll !== "function") {
    throw new AgentLoopError("invalid-options", "resumeAgent needs a session (createAgentSession)");
  }
  if (!isRecord(model) || typeof model.complete !== "function") {
    throw new AgentLoopError("invalid-options", "resumeAgent needs a model with complete()");
  }
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns > 0)) {
    throw new AgentLoopError("invalid-options", `maxTurns must be a positive integer, got ${String(maxTurns)}`);
  }
  if (!isRecord(decisions)) {
    throw new AgentLoopError("invalid-options", "resumeAgent needs decisions: an object of approval id to decision");
  }
  const { state, calls, pending } = openRunState(session.approvals, options.state);
  // What the model saw before the pause is still in its transcript: the session is tainted as the paused one was.
  if (state.taint !== undefined) session.flow?.taint(state.taint);
  const pendingById = new Map(pending.map((entry) => [entry.request.approvalId, entry]));
  const decided: Decided[] = [];
  for (const approvalId of Object.keys(decisions)) {
    const entry = pendingById.get(approvalId);
    if (entry === undefined) {
      throw new ApprovalError(
        "approval-unknown",
        `No call of this run waits for approval ${approvalId}; pending: ${[...pendingById.keys()].join(", ") || "none"}.`,
        approvalId,
      );
    }
    decided.push({ ...entry, decision: decisions[approvalId] });
  }
  const run: LoopRun = {
    options: {
      session,
      model,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.toolsInSystemPrompt === undefined ? {} : { toolsInSystemPrompt: options.toolsInSystemPrompt }),
    },
    maxTurns: maxTurns ?? state.maxTurns,
    transcript: [...state.transcript],
    total: state.usage,
    turn: state.turn,
  };
  const paused: TurnCalls = {
    calls,
    results: state.results.map((result) => result ?? undefined),
    pending: pending.filter(({ request }) => !Object.hasOwn(decisions, request.approvalId)),
    stopReason: state.stopReason,
  };
  return resume(run, paused, decided);
}

/** A pending approval, its call's place in the paused turn, and the decision given for it. */
interface Decided extends PendingCall {
  readonly decision: unknown;
}

async function* resume(
  run: LoopRun,
  paused: TurnCalls,
  decided: readonly Decided[],
): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  const { session, signal } = run.options;
  const approvals = session.approvals;
  // Checked before.
  if (approvals === undefined) throw new ApprovalError("approval-state-invalid", "The session has no approvals.");
  const outcomes = await approvals.resume(
    decided.map(({ request, decision, position, continuation }) => {
      if (continuation === undefined) return { request, decision: decision as never };
      // The call its executor paused runs again, as the model made it.
      const { id, name, input } = paused.calls[position] as ToolCall;
      return { request, decision: decision as never, continuation, parent: { id, name, input } };
    }),
    // A call run again may pause again (a program's next nested call that needs approval).
    signal === undefined ? { pauseForApproval: true } : { signal, pauseForApproval: true },
  );
  const events: AgentEvent[] = [];
  takeOutcomes(
    run,
    paused,
    decided.map(({ position }) => position),
    outcomes,
    events,
  );
  yield* events; // the consumer may abort on a result: endTurn then sees it
  events.length = 0;
  const next = endTurn(run, paused, events);
  yield* events;
  if (next === "stopped") return run.transcript;
  const stop = stopAfterTurn(run);
  if (stop !== undefined) {
    yield stop;
    return run.transcript;
  }
  return yield* turns(run);
}
