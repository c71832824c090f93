// A program's record kept in a durable run's journal as it goes (`context.checkpoint`), and read back when the process
// running it died: the answers its calls got, the calls that started and got none, and the clock it read.
import { isRecord } from "../core/json.js";
import type { JsonValue } from "../core/types.js";
import type { NestedCallAnswer, ProgramClock } from "./engine/types.js";
import { codeDigest, diverged, type LedgerStep } from "./program-ledger.js";

/** One item a program keeps, in the order it happened. */
export type CheckpointItem =
  /**
   * The program began (its text's digest); run again after a pause for approval, with the clock it replays (the
   * values noted before are replaced by it).
   */
  | { readonly v: 1; readonly program: string; readonly clock?: ProgramClock }
  /** A call's executor is about to start. */
  | { readonly started: number; readonly tool: string; readonly inputDigest: string }
  /** A call's answer, with the clock values the program read since the item before. */
  | {
      readonly answered: number;
      readonly tool: string;
      readonly inputDigest: string;
      readonly answer: NestedCallAnswer;
      readonly now: readonly number[];
      readonly random: readonly number[];
    };

/** A program whose process died, as its kept items tell it. */
export interface RecoveredProgram {
  /** The answered calls, by `seq`. */
  readonly steps: ReadonlyMap<number, LedgerStep>;
  /** Calls whose executor started and that got no answer, by `seq`. */
  readonly interrupted: ReadonlyMap<number, { readonly tool: string; readonly inputDigest: string }>;
  /** The clock it read up to its last answer. */
  readonly clock: ProgramClock;
}

/**
 * The record in `items` (`context.recovered`); throws `ToolCallError` `code-replay-diverged` when they are not this
 * program's items.
 */
export function readCheckpoints(items: readonly JsonValue[], code: string): RecoveredProgram {
  const digest = codeDigest(code);
  const [first] = items;
  if (!isRecord(first) || first.v !== 1 || first.program !== digest) {
    throw diverged(
      isRecord(first) && first.v === 1 ? "the program is not the one that ran" : "its record is not a program's",
    );
  }
  const steps = new Map<number, LedgerStep>();
  const interrupted = new Map<number, { tool: string; inputDigest: string }>();
  let now: number[] = [];
  let random: number[] = [];
  for (const item of items as readonly Partial<Record<string, unknown>>[]) {
    if (isRecord(item) && item.v === 1) {
      if (item.program !== digest) throw diverged("the program is not the one that ran");
      const clock = item.clock as Partial<ProgramClock> | undefined;
      if (isRecord(clock) && Array.isArray(clock.now) && Array.isArray(clock.random)) {
        now = [...clock.now];
        random = [...clock.random];
      }
      continue;
    }
    if (!isRecord(item) || typeof item.tool !== "string" || typeof item.inputDigest !== "string") {
      throw diverged("its record holds an item that is not a call's");
    }
    const { tool, inputDigest } = item;
    if (typeof item.started === "number") interrupted.set(item.started, { tool, inputDigest });
    else if (typeof item.answered === "number" && isRecord(item.answer)) {
      interrupted.delete(item.answered);
      steps.set(item.answered, { seq: item.answered, tool, inputDigest, answer: item.answer as NestedCallAnswer });
      if (Array.isArray(item.now)) now.push(...(item.now as number[]));
      if (Array.isArray(item.random)) random.push(...(item.random as number[]));
    } else throw diverged("its record holds an item that is not a call's");
  }
  return { steps, interrupted, clock: { now, random } };
}
