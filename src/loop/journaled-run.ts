// A journaled run: a new one starts its journal; one whose journal has entries resumes where its process died.
import type { ToolCallErrorCode, ToolResultBlock } from "../core/types.js";
import type { JournalEntry, RunJournal, RunLease } from "../journal/run-journal.js";
import type { ModelStopReason, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import { endTurn, finish, stopAfterTurn, takeOutcomes } from "./end-turn.js";
import type { LoopJournal, LoopRun, TurnCalls } from "./loop-run.js";
import { addUsage, DEFAULT_MAX_TURNS, dispatchTurn, turns } from "./turns.js";
import type { AgentEvent, RunAgentOptions } from "./types.js";

type AssistantMessage = Extract<TranscriptMessage, { role: "assistant" }>;

/** The last model turn of a journal whose calls did not all end: what the dead process left. */
interface OpenTurn {
  readonly turn: number;
  readonly calls: readonly ToolCall[];
  readonly stopReason: ModelStopReason;
  /** Results journaled for some of its calls, by call id. */
  readonly ended: ReadonlyMap<string, { readonly result: ToolResultBlock; readonly errorCode?: ToolCallErrorCode }>;
  /** The calls whose start was journaled. */
  readonly started: ReadonlySet<string>;
}

/** A run read back from its journal. */
interface Restored {
  readonly transcript: TranscriptMessage[];
  readonly maxTurns: number;
  readonly total: ModelUsage;
  readonly turn: number;
  readonly open?: OpenTurn;
  /** Why it ended, when its journal says it did. */
  readonly ended?: "completed" | "max_turns";
}

/**
 * `runAgent` with `journal` and `runId` (docs/durable-runs.md). Takes the run (`journal.acquire`, when the journal
 * can), reads its entries, and starts it or resumes it: finished model turns are not asked again; of the turn the
 * dead process left, finished calls keep their journaled results, a call that started and did not end runs again
 * when its tool is idempotent and otherwise ends with `outcome-unknown`, and calls that never started run. Never
 * throws: a failing journal ends the run with `journal_error`.
 */
export async function* journaledRun(
  options: RunAgentOptions & { readonly journal: RunJournal; readonly runId: string },
): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  const { journal, runId } = options;
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
      await record.record([{ kind: "run-started", transcript: fresh, maxTurns: run.maxTurns, at: Date.now() }]);
    } else {
      const restored = restoreRun(entries);
      run = { ...run, ...restored, maxTurns: options.maxTurns ?? restored.maxTurns };
      if (restored.ended !== undefined) {
        yield finish(run, restored.ended);
        return run.transcript;
      }
      if (restored.open !== undefined) {
        const next = yield* finishOpenTurn(run, restored.open);
        if (next === "stopped") return run.transcript;
      }
    }
    for await (const event of turns(run)) {
      // Only a finished run is closed: an aborted or failed one resumes when its id is run again.
      if (event.type === "done" && (event.reason === "completed" || event.reason === "max_turns")) {
        await record.record([{ kind: "run-ended", reason: event.reason, turns: event.turns }]);
      }
      yield event;
    }
    return run.transcript;
  } catch (thrown) {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    const failed = new Error(`The run journal failed, so run ${runId} stopped: ${error.message}`, { cause: error });
    yield { type: "error", turn: run.turn, error: failed };
    yield finish(run, "journal_error", failed);
    return run.transcript;
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

/** The run as its journal tells it; throws on a journal that does not start with `run-started`. */
function restoreRun(entries: readonly JournalEntry[]): Restored {
  const [first] = entries;
  if (first?.kind !== "run-started") throw new Error("the journal does not begin with the run's start");
  const transcript = [...first.transcript];
  let total: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let turn = 0;
  let last: { message: AssistantMessage; stopReason: ModelStopReason; turn: number } | undefined;
  const ended = new Map<string, { result: ToolResultBlock; errorCode?: ToolCallErrorCode }>();
  const started = new Set<string>();
  let endedReason: "completed" | "max_turns" | undefined;
  const closeTurn = () => {
    if (last === undefined || last.message.toolCalls.length === 0) return;
    const results = last.message.toolCalls.map((call) => ended.get(call.id)?.result);
    transcript.push({ role: "tool", results: results as ToolResultBlock[] });
  };
  for (const entry of entries.slice(1)) {
    if (entry.kind === "model-turn") {
      closeTurn();
      ended.clear();
      started.clear();
      transcript.push(entry.message);
      if (entry.usage !== undefined) total = addUsage(total, entry.usage);
      turn = entry.turn;
      last = { message: entry.message, stopReason: entry.stopReason, turn: entry.turn };
    } else if (entry.kind === "call-started") started.add(entry.toolCallId);
    else if (entry.kind === "call-ended") {
      ended.set(
        entry.toolCallId,
        entry.errorCode === undefined ? { result: entry.result } : { result: entry.result, errorCode: entry.errorCode },
      );
    } else if (entry.kind === "run-ended") endedReason = entry.reason === "max_turns" ? "max_turns" : "completed";
  }
  // A last answer without calls ended the run, whether or not its end was journaled.
  if (last !== undefined && last.message.toolCalls.length === 0) endedReason ??= "completed";
  const calls = last?.message.toolCalls ?? [];
  const complete = calls.every((call) => ended.has(call.id));
  if (complete) closeTurn();
  const restored = { transcript, maxTurns: first.maxTurns, total, turn };
  if (endedReason !== undefined) return { ...restored, ended: endedReason };
  if (complete || last === undefined) return restored;
  return { ...restored, open: { turn: last.turn, calls, stopReason: last.stopReason, ended, started } };
}

/**
 * The turn the dead process left, ended here: journaled results kept, calls that started and did not end run again
 * when idempotent and end `outcome-unknown` otherwise (journaled so), calls never started run. Its events go out as
 * a turn's do.
 */
async function* finishOpenTurn(run: LoopRun, open: OpenTurn): AsyncGenerator<AgentEvent, "stopped" | "next"> {
  const { session } = run.options;
  const journal = run.journal as LoopJournal;
  const dispatched: TurnCalls = { calls: open.calls, results: [], pending: [], stopReason: open.stopReason };
  const events: AgentEvent[] = [];
  const again: number[] = [];
  for (const [position, call] of open.calls.entries()) {
    const done = open.ended.get(call.id);
    if (done !== undefined) {
      dispatched.results[position] = done.result;
      const event = { type: "tool_result" as const, turn: open.turn, call, result: done.result };
      events.push(done.errorCode === undefined ? event : { ...event, errorCode: done.errorCode });
    } else if (open.started.has(call.id) && session.activeTools.get(call.name)?.idempotent !== true) {
      const result = unknownOutcome(call);
      await journal.record([
        { kind: "call-ended", turn: open.turn, toolCallId: call.id, result, errorCode: "outcome-unknown" },
      ]);
      dispatched.results[position] = result;
      events.push({ type: "tool_result", turn: open.turn, call, result, errorCode: "outcome-unknown" });
    } else again.push(position);
  }
  if (again.length > 0) {
    const outcomes = await dispatchTurn(
      run,
      again.map((position) => open.calls[position] as ToolCall),
    );
    takeOutcomes(run, dispatched, again, outcomes, events);
  }
  yield* events;
  events.length = 0;
  const next = endTurn(run, dispatched, events);
  yield* events;
  if (next === "stopped") return next;
  const stop = stopAfterTurn(run);
  if (stop !== undefined) {
    yield stop;
    return "stopped";
  }
  return "next";
}

/** The result of a call that started in a process that died before it ended, and may not run twice. */
function unknownOutcome(call: ToolCall): ToolResultBlock {
  const text = `Tool call ${call.name} (${call.id}) was running when the process running this agent stopped; it may or may not have taken effect, and was not run again because ${call.name} is not idempotent. Check before you repeat it.`;
  return { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }], is_error: true };
}
