// A journaled run: a new one starts its journal; one whose journal has entries resumes where its last process left
// it, died or paused for approval.
import { readDecision } from "../core/approve/approvals.js";
import { ApprovalError } from "../core/errors.js";
import type { ApprovalDecision, ApprovalResumption, ToolResultBlock } from "../core/types.js";
import type { RunJournal, RunLease } from "../journal/run-journal.js";
import type { TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import { endTurn, finish, stopAfterTurn, takeOutcomes } from "./end-turn.js";
import { dispatchJournaled, resumeJournaled } from "./journal-calls.js";
import type { LoopJournal, LoopRun, TurnCalls } from "./loop-run.js";
import { type OpenTurn, restoreRun } from "./restore-run.js";
import { DEFAULT_MAX_TURNS, turns } from "./turns.js";
import type { AgentEvent, RunAgentOptions } from "./types.js";

type Decisions = Readonly<Record<string, ApprovalDecision>>;

/**
 * `runAgent` with `journal` and `runId` (docs/durable-runs.md). Takes the run (`journal.acquire`, when the journal
 * can), reads its entries, and starts it or resumes it: finished model turns are not asked again; of the turn its
 * last process left, finished calls keep their journaled results, a call that started and did not end runs again
 * when its tool is idempotent and otherwise ends with `outcome-unknown`, calls paused for approval run as
 * `decisions` (or decisions journaled before) say or pause again, and calls never started run. A pause is journaled
 * (`run-paused`): its `done` event carries no `state`, since the run resumes from its journal. The first step
 * rejects with `ApprovalError` (`approval-unknown`, `approval-used`) for a decision that names no waiting approval,
 * before anything runs. Otherwise never throws: a failing journal ends the run with `journal_error`.
 */
export async function* journaledRun(
  options: RunAgentOptions & { readonly journal: RunJournal; readonly runId: string },
): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  const { journal, runId, decisions = {} } = options;
  const fresh: TranscriptMessage[] = [...(options.messages ?? []), { role: "user", text: options.prompt }];
  const record: LoopJournal = { runId, record: (entries) => journal.append(runId, entries) };
  let run: LoopRun = {
    options,
    maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
    transcript: fresh,
    total: { inputTokens: 0, outputTokens: 0 },
    turn: 0,
    journal: record,
  };
  let lease: RunLease | undefined;
  try {
    if (journal.acquire !== undefined) {
      lease = await journal.acquire(runId);
      if (lease === undefined) {
        yield finish(run, "held_elsewhere");
        return run.transcript;
      }
    }
    const entries = await journal.read(runId);
    if (entries.length === 0) {
      checkDecisions(decisions, undefined);
      await record.record([{ kind: "run-started", transcript: fresh, maxTurns: run.maxTurns, at: Date.now() }]);
    } else {
      const restored = restoreRun(entries);
      checkDecisions(decisions, restored.ended === undefined ? restored.open : undefined);
      run = { ...run, ...restored, maxTurns: options.maxTurns ?? restored.maxTurns };
      // What the model saw is still in its transcript: the session is tainted as the run was.
      if (restored.taint.length > 0) options.session.flow?.taint(restored.taint);
      if (restored.ended !== undefined) {
        yield finish(run, restored.ended);
        return run.transcript;
      }
      if (restored.open !== undefined) {
        const next = yield* finishOpenTurn(run, restored.open, decisions);
        if (next === "stopped") return run.transcript;
      }
    }
    for await (const event of turns(run)) yield await noted(record, event, true);
    return run.transcript;
  } catch (thrown) {
    if (thrown instanceof ApprovalError) throw thrown; // a bad decision: nothing ran
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    const failed = new Error(`The run journal failed, so run ${runId} stopped: ${error.message}`, { cause: error });
    yield { type: "error", turn: run.turn, error: failed };
    yield finish(run, "journal_error", failed);
    return run.transcript;
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

/**
 * An event on its way out, its fact journaled first: a finished run's end, or (when `changed`) the approvals a paused
 * run now waits for. A pause goes out without its `state`.
 */
async function noted(journal: LoopJournal, event: AgentEvent, changed: boolean): Promise<AgentEvent> {
  if (event.type !== "done") return event;
  // Only a finished run is closed: an aborted or failed one resumes when its id is run again.
  if (event.reason === "completed" || event.reason === "max_turns") {
    await journal.record([{ kind: "run-ended", reason: event.reason, turns: event.turns }]);
  }
  if (event.reason !== "awaiting_approval" || event.state === undefined) return event;
  const { state, ...paused } = event;
  if (changed) {
    const { turn, pending, continuations } = state;
    await journal.record([
      continuations === undefined
        ? { kind: "run-paused", turn, pending }
        : { kind: "run-paused", turn, pending, continuations },
    ]);
  }
  return paused;
}

/** Throws `ApprovalError` unless every decision answers a call of `open` that waits for approval, undecided. */
function checkDecisions(decisions: Decisions, open: OpenTurn | undefined): void {
  const waiting = new Map<string, boolean>(); // approval id → decided already
  for (const stood of open?.standing.values() ?? []) {
    if (stood.kind === "paused") waiting.set(stood.request.approvalId, stood.decision !== undefined);
  }
  for (const approvalId of Object.keys(decisions)) {
    const decided = waiting.get(approvalId);
    if (decided === true) {
      throw new ApprovalError(
        "approval-used",
        `Approval ${approvalId} was already decided in this run's journal; a decision applies once.`,
        approvalId,
      );
    }
    if (decided === undefined) {
      const open = [...waiting].flatMap(([id, done]) => (done ? [] : [id]));
      throw new ApprovalError(
        "approval-unknown",
        `No call of this run waits for approval ${approvalId}; waiting: ${open.join(", ") || "none"}.`,
        approvalId,
      );
    }
  }
}

/**
 * The turn the last process left, ended here: journaled results kept; calls that started and did not end run again
 * when idempotent and end `outcome-unknown` otherwise (journaled so); paused calls with a decision (journaled first)
 * run as decided, those without wait again; calls never started run. Its events go out as a turn's do; a run that
 * only waits again is not journaled again.
 */
async function* finishOpenTurn(
  run: LoopRun,
  open: OpenTurn,
  decisions: Decisions,
): AsyncGenerator<AgentEvent, "stopped" | "next"> {
  const { session } = run.options;
  const journal = run.journal as LoopJournal;
  const dispatched: TurnCalls = { calls: open.calls, results: [], pending: [], stopReason: open.stopReason };
  const events: AgentEvent[] = [];
  const again: number[] = [];
  const unknown: number[] = [];
  const decided: { position: number; resumption: ApprovalResumption }[] = [];
  for (const [position, call] of open.calls.entries()) {
    const stood = open.standing.get(call.id);
    if (stood?.kind === "ended") {
      dispatched.results[position] = stood.result;
      const event = { type: "tool_result" as const, turn: open.turn, call, result: stood.result };
      events.push(stood.errorCode === undefined ? event : { ...event, errorCode: stood.errorCode });
    } else if (stood?.kind === "started") {
      // An executor that kept a record goes on from it; another runs again only if its tool is idempotent.
      const goesOn = open.checkpoints.has(call.id) || session.activeTools.get(call.name)?.idempotent === true;
      (goesOn ? again : unknown).push(position);
    } else if (stood?.kind === "paused") {
      const { request, continuation } = stood;
      const decision = stood.decision ?? decisions[request.approvalId];
      if (decision === undefined) {
        dispatched.pending.push(
          continuation === undefined ? { request, position } : { request, position, continuation },
        );
      } else {
        // A call its executor paused runs again, as the model made it, with its continuation.
        const resumption: ApprovalResumption =
          continuation === undefined
            ? { request, decision }
            : { request, decision, continuation, parent: { id: call.id, name: call.name, input: call.input } };
        decided.push({ position, resumption });
      }
    } else again.push(position);
  }
  for (const position of unknown) {
    const call = open.calls[position] as ToolCall;
    const result = unknownOutcome(call);
    await journal.record([
      { kind: "call-ended", turn: open.turn, toolCallId: call.id, result, errorCode: "outcome-unknown" },
    ]);
    dispatched.results[position] = result;
    events.push({ type: "tool_result", turn: open.turn, call, result, errorCode: "outcome-unknown" });
  }
  const fresh = Object.entries(decisions).map(([approvalId, decision]) => ({
    kind: "approval-decided" as const,
    turn: open.turn,
    approvalId,
    decision: readDecision(decision) as ApprovalDecision,
  }));
  // Journaled before it is acted on: a decision applies once, whichever process resumes.
  if (fresh.length > 0) await journal.record(fresh);
  if (decided.length > 0) {
    const ids = decided.map(({ position }) => (open.calls[position] as ToolCall).id);
    const outcomes = await resumeJournaled(
      run,
      journal,
      decided.map(({ resumption }) => resumption),
      ids,
    );
    takeOutcomes(
      run,
      dispatched,
      decided.map(({ position }) => position),
      outcomes,
      events,
    );
  }
  if (again.length > 0) {
    const calls = again.map((position) => open.calls[position] as ToolCall);
    const recovered = Object.fromEntries(
      calls.flatMap((call) => {
        const items = open.checkpoints.get(call.id);
        return items === undefined ? [] : [[call.id, items]];
      }),
    );
    const outcomes = await dispatchJournaled(run, journal, calls, recovered);
    takeOutcomes(run, dispatched, again, outcomes, events);
  }
  const acted = unknown.length + fresh.length + decided.length + again.length > 0;
  yield* events; // the consumer may abort on a result: endTurn then sees it
  events.length = 0;
  // A paused run's state lists its waiting calls in the turn's order.
  dispatched.pending.sort((one, other) => one.position - other.position);
  const next = endTurn(run, dispatched, events);
  for (const event of events) yield await noted(journal, event, acted);
  if (next === "stopped") return next;
  const stop = stopAfterTurn(run);
  if (stop !== undefined) {
    yield await noted(journal, stop, acted);
    return "stopped";
  }
  return "next";
}

/** The result of a call that started in a process that died before it ended, and may not run twice. */
function unknownOutcome(call: ToolCall): ToolResultBlock {
  const text = `Tool call ${call.name} (${call.id}) was running when the process running this agent stopped; it may or may not have taken effect, and was not run again because ${call.name} is not idempotent. Check before you repeat it.`;
  return { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }], is_error: true };
}
