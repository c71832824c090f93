// A run read back from where it was kept (a run journal, a recording): its turns and calls, as the inspector shows it.
import type { ToolCallErrorCode, ToolResultBlock } from "../core/types.js";

/**
 * How a stored run ended: `completed` or `max_turns` when the store says so (a last answer without calls counts as
 * completed), `awaiting_approval` when its journal waits for a person (`run-paused`), else `stopped`: the store ends
 * mid-way (the process died, the run was aborted or failed).
 */
export type StoredRunStatus = "completed" | "max_turns" | "awaiting_approval" | "stopped";

/**
 * How a stored call ended: `ok` or `error` with its result; `interrupted` when it started and the store has no end
 * (the process stopped during it); `awaiting-approval` when the run paused for a person's answer on it;
 * `not-started` when the model asked for it and the run stopped before it ran.
 */
export type StoredCallStatus = "ok" | "error" | "interrupted" | "awaiting-approval" | "not-started";

/** One call of a stored run. */
export interface StoredCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The input the model gave (absent when the store has the call but not the model's answer). */
  readonly input?: unknown;
  readonly status: StoredCallStatus;
  readonly result?: ToolResultBlock;
  readonly errorCode?: ToolCallErrorCode;
  /** The approval the call waited for, and the decision journaled for it, once there is one. */
  readonly approval?: { readonly approvalId: string; readonly outcome?: "approved" | "declined" };
  /** `"source"`: its result brought untrusted content into the run (flow rules, docs/security.md). */
  readonly flow?: "source";
}

/** One model turn of a stored run, with the calls it asked for. */
export interface StoredTurn {
  readonly turn: number;
  /** The model's text. */
  readonly text: string;
  readonly stopReason?: string;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** The tools offered to the model in this turn, by name, when the store keeps them (a recording does). */
  readonly tools?: readonly string[];
  readonly calls: readonly StoredCall[];
}

/** A run as a journal or a recording tells it (`buildJournalRunView`, `buildRecordingRunView`). Plain JSON. */
export interface StoredRun {
  readonly status: StoredRunStatus;
  /** When the run started, epoch milliseconds, when the store says. */
  readonly startedAt?: number;
  /** The prompt: the last user message the run started from, when the store keeps it. */
  readonly prompt?: string;
  readonly turns: readonly StoredTurn[];
}
