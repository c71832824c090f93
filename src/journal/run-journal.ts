// A run's journal: what the agent loop writes before it acts, so that a run whose process died resumes without
// asking the model again for finished turns or running finished calls again (docs/durable-runs.md).
import type {
  ApprovalDecision,
  ApprovalRequest,
  FlowSource,
  JsonValue,
  ToolCallErrorCode,
  ToolResultBlock,
} from "../core/types.js";
import type { ModelStopReason, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";

/** One fact of a run, in the order the loop wrote them. Plain JSON. */
export type JournalEntry =
  /** The run began: the conversation it starts from (the prompt last) and its turn limit. */
  | {
      readonly kind: "run-started";
      readonly transcript: readonly TranscriptMessage[];
      readonly maxTurns: number;
      /** Epoch milliseconds. */
      readonly at: number;
    }
  /** A model turn's answer, written before any of its calls runs. */
  | {
      readonly kind: "model-turn";
      readonly turn: number;
      /** The assistant message as the transcript keeps it. */
      readonly message: Extract<TranscriptMessage, { role: "assistant" }>;
      readonly stopReason: ModelStopReason;
      readonly usage?: ModelUsage;
    }
  /** A call is about to run its executor: written before it starts. */
  | {
      readonly kind: "call-started";
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
      /** `inputDigest` of the input the call runs with. */
      readonly inputDigest: string;
    }
  /**
   * What a running call's executor kept (`context.checkpoint`): a call that started and did not end runs again with
   * its items, in order, instead of ending `outcome-unknown`.
   */
  | { readonly kind: "call-checkpoint"; readonly turn: number; readonly toolCallId: string; readonly item: JsonValue }
  /** A call ended: its result as the model gets it. */
  | {
      readonly kind: "call-ended";
      readonly turn: number;
      readonly toolCallId: string;
      readonly result: ToolResultBlock;
      readonly errorCode?: ToolCallErrorCode;
    }
  /**
   * The run paused: calls of turn `turn` wait for a person's approval. Lists every approval the turn waits for now
   * (a later `run-paused` of the same turn replaces it), with what the executors that paused their calls left (a
   * code-mode program's ledger), by approval id.
   */
  | {
      readonly kind: "run-paused";
      readonly turn: number;
      readonly pending: readonly ApprovalRequest[];
      readonly continuations?: Readonly<Record<string, JsonValue>>;
    }
  /** A decision on a pending approval, written before it is acted on: it applies once, in whichever process resumes. */
  | {
      readonly kind: "approval-decided";
      readonly turn: number;
      readonly approvalId: string;
      readonly decision: ApprovalDecision;
    }
  /** A call of an untrusted tool brought its content into the run (docs/security.md): a resumed run is tainted again. */
  | { readonly kind: "flow-tainted"; readonly source: FlowSource }
  /** The run ended (not written for a run that paused for approval). */
  | { readonly kind: "run-ended"; readonly reason: string; readonly turns: number };

/** Where a run's entries are kept: a file journal, a PostgreSQL journal, or your own. */
export interface RunJournal {
  /** Appends entries to the run, in order, durably (on disk, committed) before it resolves. */
  append(runId: string, entries: readonly JournalEntry[]): Promise<void>;
  /** Every entry of the run, in the order appended; empty for a run never written. */
  read(runId: string): Promise<readonly JournalEntry[]>;
  /**
   * Takes the run for this process, so that of several processes resuming one run exactly one continues it:
   * a lease to release when the run stops, or `undefined` while another live holder has it. A holder that died
   * (its process, its connection) loses it. Journals without it let every caller continue.
   */
  acquire?(runId: string): Promise<RunLease | undefined>;
}

/** A run taken by one process (`RunJournal.acquire`). */
export interface RunLease {
  release(): Promise<void>;
}
