// One program run's record of its calls: replays a paused run's ledger (or a died one's kept record), pauses the
// program for an approval, and in a durable run keeps each call's start and answer as it goes.
import type { ApprovalRequest, JsonValue, ToolCallOutcome, ToolCallResumption } from "../core/types.js";
import type { NestedCallAnswer, NestedCallRequest, ProgramClock } from "./engine/types.js";
import type { CheckpointItem, RecoveredProgram } from "./program-checkpoints.js";
import {
  callDigest,
  codeDigest,
  type LedgerStep,
  ledgerChars,
  MAX_LEDGER_CHARS,
  type ProgramLedger,
  type ReplayedStep,
  readLedger,
  replayStep,
} from "./program-ledger.js";

/** What the nested caller asks of a program's journal. */
export interface ProgramJournal {
  /** True once the program is being stopped (it paused or diverged): no more calls run. */
  readonly stopped: boolean;
  /** Where a call stands against a resumed run's ledger (or a died run's record); a string says how it diverged. */
  step(request: NestedCallRequest): ReplayedStep | string;
  /** The paused call of a resumed run, ended as decided. */
  runPausedCall(): Promise<ToolCallOutcome>;
  /** An answer the program got; in a durable run kept too, unless the record already had it. */
  record(request: NestedCallRequest, answer: NestedCallAnswer): void;
  /** In a durable run: keeps that the call's executor starts (resolves once kept). */
  started(request: NestedCallRequest): Promise<void>;
  /** Resolves once everything kept so far is durable; a failure stops the program. */
  kept(): Promise<void>;
  /** A call came back waiting for approval: true when the program stops to pause for it (its ledger fits). */
  pause(request: NestedCallRequest, approval: ApprovalRequest): boolean;
  /** The program asked something else than its ledger says: it stops, nothing of that flush runs. */
  diverge(why: string): void;
}

/** How a journaled program ended, beside its outcome. */
export type JournalEnding =
  | { readonly kind: "paused"; readonly request: ApprovalRequest; readonly ledger: ProgramLedger }
  | { readonly kind: "diverged"; readonly why: string }
  /** What the program did could not be kept in the run's journal: it stopped. */
  | { readonly kind: "unkept"; readonly why: string }
  | { readonly kind: "ran" };

/** A program's journal, with what its run needs to stop it and read its clock. */
export interface JournalHandle extends ProgramJournal {
  /** The resumed run's recorded clock, for the engine's `replay`. */
  readonly replay: ProgramClock | undefined;
  /** Called once the program started: how to read its clock so far, and how to stop it. */
  attach(clock: () => ProgramClock, stop: () => void): void;
  /** In a durable run: keeps that the program begins, before it starts (rejects when it cannot be kept). */
  begin(): Promise<void>;
  /** How the program ended, given the clock it read and whether it returned a value. */
  ending(clock: ProgramClock, returned: boolean): JournalEnding;
}

/** A durable run's side of a program's journal: where items are kept, and what a died run kept. */
export interface ProgramDurability {
  /** `context.checkpoint`. */
  readonly keep: (item: JsonValue) => Promise<void>;
  /** `context.recovered`, read (`readCheckpoints`). */
  readonly recovered?: RecoveredProgram;
}

/**
 * The journal of one program: `resumption` is run_code's `context.resumption` (a run after a pause: its ledger is
 * checked against `code`, and throws `code-replay-diverged` when it is another program's); `canPause` whether
 * run_code's call may pause (`context.suspend`); `durable` where a durable run keeps it as it goes.
 */
export function createProgramJournal(
  code: string,
  resumption: ToolCallResumption | undefined,
  canPause: boolean,
  durable?: ProgramDurability,
): JournalHandle {
  const ledger = resumption === undefined ? undefined : readLedger(resumption.continuation, code);
  const recovered = ledger === undefined ? durable?.recovered : undefined;
  const recorded = new Map<number, LedgerStep>(ledger?.steps.map((step) => [step.seq, step]) ?? recovered?.steps);
  const steps = new Map(recorded);
  // What is kept so far, one item after another; the clock values already kept.
  let keeping: Promise<void> = Promise.resolve();
  let unkeptWhy: string | undefined;
  const replayed = ledger?.clock ?? recovered?.clock;
  const noted = { now: replayed?.now.length ?? 0, random: replayed?.random.length ?? 0 };
  const keep = (item: CheckpointItem) => {
    if (durable === undefined || unkeptWhy !== undefined) return;
    keeping = keeping.then(() => durable.keep(item as unknown as JsonValue));
    keeping.catch((error: unknown) => {
      if (unkeptWhy !== undefined) return;
      unkeptWhy = error instanceof Error ? error.message : String(error);
      stopProgram();
    });
  };
  let readClock: () => ProgramClock = () => ({ now: [], random: [] });
  let stopProgram: () => void = () => {};
  let pausedFor: { request: ApprovalRequest; step: ProgramLedger["paused"] } | undefined;
  let divergedWhy: string | undefined;
  let reachedPaused = false;
  const base = codeDigest(code);
  const ledgerWith = (clock: ProgramClock, paused: ProgramLedger["paused"]): ProgramLedger => ({
    v: 1,
    codeDigest: base,
    steps: [...steps.values()].sort((a, b) => a.seq - b.seq),
    paused,
    clock: { now: [...clock.now], random: [...clock.random] },
  });
  return {
    replay: replayed,
    get stopped() {
      return pausedFor !== undefined || divergedWhy !== undefined || unkeptWhy !== undefined;
    },
    begin() {
      if (durable === undefined || recovered !== undefined) return Promise.resolve();
      // Run again after a pause: the record goes on from the ledger's clock.
      keep(ledger === undefined ? { v: 1, program: base } : { v: 1, program: base, clock: ledger.clock });
      return keeping;
    },
    attach(clock, stop) {
      readClock = clock;
      stopProgram = stop;
    },
    step(request) {
      if (ledger === undefined) return recovered === undefined ? { kind: "live" } : recoveredStep(recovered, request);
      const step = replayStep(ledger, recorded, request);
      if (typeof step !== "string" && step.kind === "paused") {
        if (reachedPaused) return `call ${request.seq} was asked for twice`;
        reachedPaused = true;
      }
      return step;
    },
    runPausedCall() {
      return (resumption as ToolCallResumption).runPausedCall();
    },
    record(request, answer) {
      const inputDigest = callDigest(request.input);
      steps.set(request.seq, { seq: request.seq, tool: request.tool, inputDigest, answer });
      if (recorded.has(request.seq)) return; // replayed: kept before
      const clock = readClock();
      keep({
        answered: request.seq,
        tool: request.tool,
        inputDigest,
        answer,
        now: clock.now.slice(noted.now),
        random: clock.random.slice(noted.random),
      });
      noted.now = clock.now.length;
      noted.random = clock.random.length;
    },
    started(request) {
      keep({ started: request.seq, tool: request.tool, inputDigest: callDigest(request.input) });
      return keeping;
    },
    kept() {
      return keeping.catch(() => undefined);
    },
    pause(request, approval) {
      if (!canPause || this.stopped) return false;
      const step = { seq: request.seq, tool: request.tool, inputDigest: callDigest(request.input) };
      if (ledgerChars(ledgerWith(readClock(), step)) > MAX_LEDGER_CHARS) return false;
      pausedFor = { request: approval, step };
      stopProgram();
      return true;
    },
    diverge(why) {
      if (this.stopped) return;
      divergedWhy = why;
      stopProgram();
    },
    ending(clock, returned) {
      if (unkeptWhy !== undefined) return { kind: "unkept", why: unkeptWhy };
      if (divergedWhy !== undefined) return { kind: "diverged", why: divergedWhy };
      if (pausedFor !== undefined) {
        return { kind: "paused", request: pausedFor.request, ledger: ledgerWith(clock, pausedFor.step) };
      }
      // A program that failed before it got there says why itself.
      if (ledger !== undefined && !reachedPaused && returned) {
        return {
          kind: "diverged",
          why: `the program ended without asking again for its paused call ${ledger.paused.seq}`,
        };
      }
      return { kind: "ran" };
    },
  };
}

/** Where a call stands against a died run's record: it must ask for the same tool and input as the record says. */
function recoveredStep(recovered: RecoveredProgram, request: NestedCallRequest): ReplayedStep | string {
  const answered = recovered.steps.get(request.seq);
  const known = answered ?? recovered.interrupted.get(request.seq);
  if (known === undefined) return { kind: "live" };
  if (known.tool !== request.tool || known.inputDigest !== callDigest(request.input)) {
    return `call ${request.seq} asked for tools.${request.tool} with another input than the run that stopped (tools.${known.tool})`;
  }
  return answered === undefined ? { kind: "interrupted" } : { kind: "answered", answer: answered.answer };
}
