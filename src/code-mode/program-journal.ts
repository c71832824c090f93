// One program run's record of its calls: replays a paused run's ledger, and pauses the program for an approval.
import type { ApprovalRequest, ToolCallOutcome, ToolCallResumption } from "../core/types.js";
import type { NestedCallAnswer, NestedCallRequest, ProgramClock } from "./engine/types.js";
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
  /** Where a call stands against a resumed run's ledger; a string says how it diverged. */
  step(request: NestedCallRequest): ReplayedStep | string;
  /** The paused call of a resumed run, ended as decided. */
  runPausedCall(): Promise<ToolCallOutcome>;
  /** An answer the program got. */
  record(request: NestedCallRequest, answer: NestedCallAnswer): void;
  /** A call came back waiting for approval: true when the program stops to pause for it (its ledger fits). */
  pause(request: NestedCallRequest, approval: ApprovalRequest): boolean;
  /** The program asked something else than its ledger says: it stops, nothing of that flush runs. */
  diverge(why: string): void;
}

/** How a journaled program ended, beside its outcome. */
export type JournalEnding =
  | { readonly kind: "paused"; readonly request: ApprovalRequest; readonly ledger: ProgramLedger }
  | { readonly kind: "diverged"; readonly why: string }
  | { readonly kind: "ran" };

/** A program's journal, with what its run needs to stop it and read its clock. */
export interface JournalHandle extends ProgramJournal {
  /** The resumed run's recorded clock, for the engine's `replay`. */
  readonly replay: ProgramClock | undefined;
  /** Called once the program started: how to read its clock so far, and how to stop it. */
  attach(clock: () => ProgramClock, stop: () => void): void;
  /** How the program ended, given the clock it read and whether it returned a value. */
  ending(clock: ProgramClock, returned: boolean): JournalEnding;
}

/**
 * The journal of one program: `resumption` is run_code's `context.resumption` (a run after a pause: its ledger is
 * checked against `code`, and throws `code-replay-diverged` when it is another program's); `canPause` whether
 * run_code's call may pause (`context.suspend`).
 */
export function createProgramJournal(
  code: string,
  resumption: ToolCallResumption | undefined,
  canPause: boolean,
): JournalHandle {
  const ledger = resumption === undefined ? undefined : readLedger(resumption.continuation, code);
  const recorded = new Map<number, LedgerStep>(ledger?.steps.map((step) => [step.seq, step]));
  const steps = new Map(recorded);
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
    replay: ledger?.clock,
    get stopped() {
      return pausedFor !== undefined || divergedWhy !== undefined;
    },
    attach(clock, stop) {
      readClock = clock;
      stopProgram = stop;
    },
    step(request) {
      if (ledger === undefined) return { kind: "live" };
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
      steps.set(request.seq, { seq: request.seq, tool: request.tool, inputDigest: callDigest(request.input), answer });
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
