// A run in progress as the loop's steps share it: the run itself, and a turn whose calls were dispatched.

import type { ToolResultBlock } from "../core/types.js";
import type { JournalEntry } from "../journal/run-journal.js";
import type { ModelStopReason, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import type { PendingCall } from "./run-state.js";
import type { RunAgentOptions } from "./types.js";

/** A run in progress: what every turn reads and adds to. */
export interface LoopRun {
  readonly options: Pick<RunAgentOptions, "session" | "model" | "signal" | "toolsInSystemPrompt">;
  readonly maxTurns: number;
  readonly transcript: TranscriptMessage[];
  total: ModelUsage;
  turn: number;
  /** Where the run is journaled, when it is (docs/durable-runs.md). */
  readonly journal?: LoopJournal;
}

/** A run's journal as the loop writes it. */
export interface LoopJournal {
  readonly runId: string;
  /** Appends entries durably; rejects when the journal fails. */
  record(entries: readonly JournalEntry[]): Promise<void>;
}

/** A turn whose calls were dispatched: each call's result, or its pending approval. */
export interface TurnCalls {
  readonly calls: readonly ToolCall[];
  readonly results: (ToolResultBlock | undefined)[];
  /** Paused calls, in the calls' order, with their place among `calls`. */
  readonly pending: PendingCall[];
  readonly stopReason: ModelStopReason;
}
