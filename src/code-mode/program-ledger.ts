// A paused program's ledger: the answers its calls got and the clock it read, so a resumed run replays them.
import { createHash } from "node:crypto";
import { canonicalJson } from "../core/approve/input-digest.js";
import { ToolCallError } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { JsonValue } from "../core/types.js";
import type { NestedCallAnswer, NestedCallRequest, ProgramClock } from "./engine/types.js";

/** The most characters of JSON a ledger may hold (4 MiB): a pause that would need more does not pause. */
export const MAX_LEDGER_CHARS = 4 * 1024 * 1024;

/** One call the program made before it paused, and the answer it got. */
export interface LedgerStep {
  readonly seq: number;
  readonly tool: string;
  /** `callDigest` of the call's input as the program wrote it. */
  readonly inputDigest: string;
  readonly answer: NestedCallAnswer;
}

/**
 * What run_code keeps when its program pauses for a nested call's approval (the call's `continuation`): plain JSON,
 * signed with the rest of the run state.
 */
export interface ProgramLedger {
  readonly v: 1;
  /** `sha256:` and the hex SHA-256 of the program's text: a resumed run must run the same program. */
  readonly codeDigest: string;
  /** The calls answered before the pause, by `seq`. */
  readonly steps: readonly LedgerStep[];
  /** The call that waits for approval. */
  readonly paused: { readonly seq: number; readonly tool: string; readonly inputDigest: string };
  readonly clock: ProgramClock;
}

/** The digest of a program's text. */
export function codeDigest(code: string): string {
  return `sha256:${createHash("sha256").update(code).digest("hex")}`;
}

/** The digest of a call's input as the program wrote it (RFC 8785 canonical JSON, as approvals digest inputs). */
export function callDigest(input: JsonValue): string {
  return `sha256:${createHash("sha256").update(canonicalJson(input)).digest("hex")}`;
}

/** The length of a ledger's JSON. */
export function ledgerChars(ledger: ProgramLedger): number {
  return JSON.stringify(ledger).length;
}

/**
 * A resumed run's ledger, read from its continuation (already verified by the run state's signature); throws
 * `ToolCallError` `code-replay-diverged` when it is not a ledger of this program.
 */
export function readLedger(continuation: JsonValue, code: string): ProgramLedger {
  const ledger = continuation as unknown as ProgramLedger;
  if (!isRecord(continuation) || ledger.v !== 1 || !Array.isArray(ledger.steps) || !isRecord(ledger.paused)) {
    throw diverged("its recorded state is not a program ledger this toolwire reads");
  }
  if (ledger.codeDigest !== codeDigest(code)) throw diverged("the program is not the one that paused");
  return ledger;
}

/**
 * A step the replayed program reached: answered from the record, the paused call, a call whose executor started in a
 * process that died with no answer (`interrupted`), or a new (live) call.
 */
export type ReplayedStep =
  | { readonly kind: "answered"; readonly answer: NestedCallAnswer }
  | { readonly kind: "paused" }
  | { readonly kind: "interrupted" }
  | { readonly kind: "live" };

/**
 * Where a replayed program's call stands against the ledger: a recorded step or the paused call must be asked for
 * with the same tool and input, else the program diverged (a message for `code-replay-diverged`).
 */
export function replayStep(
  ledger: ProgramLedger,
  steps: ReadonlyMap<number, LedgerStep>,
  request: NestedCallRequest,
): ReplayedStep | string {
  const recorded = request.seq === ledger.paused.seq ? ledger.paused : steps.get(request.seq);
  if (recorded === undefined) return { kind: "live" };
  if (recorded.tool !== request.tool || recorded.inputDigest !== callDigest(request.input)) {
    return `call ${request.seq} asked for tools.${request.tool} with another input than the paused run's call ${recorded.seq} (tools.${recorded.tool})`;
  }
  return recorded === ledger.paused
    ? { kind: "paused" }
    : { kind: "answered", answer: (recorded as LedgerStep).answer };
}

/** A `code-replay-diverged` error of run_code. */
export function diverged(why: string): ToolCallError {
  return new ToolCallError(
    "code-replay-diverged",
    "run_code",
    `The resumed program did not replay the run that paused (${why}), so nothing more ran.`,
  );
}
