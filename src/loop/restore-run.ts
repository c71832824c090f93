// A run read back from its journal: the conversation, the usage, and the turn its last process left unfinished.
import type {
  ApprovalDecision,
  ApprovalRequest,
  FlowSource,
  JsonValue,
  ToolCallErrorCode,
  ToolResultBlock,
} from "../core/types.js";
import type { JournalEntry } from "../journal/run-journal.js";
import type { ModelStopReason, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import { addUsage } from "./turns.js";

type AssistantMessage = Extract<TranscriptMessage, { role: "assistant" }>;

/** Where a call of the unfinished turn stands, by the last journal entry about it. */
export type CallStanding =
  /** Its executor started (`call-started`) and no end followed: its process died while it ran. */
  | { readonly kind: "started" }
  /** It ended: its journaled result. */
  | { readonly kind: "ended"; readonly result: ToolResultBlock; readonly errorCode?: ToolCallErrorCode }
  /** It waits for a person's approval (`run-paused`), decided when an `approval-decided` followed. */
  | {
      readonly kind: "paused";
      readonly request: ApprovalRequest;
      readonly continuation?: JsonValue;
      readonly decision?: ApprovalDecision;
    };

/** The last model turn of a journal whose calls did not all end. Calls never started have no standing. */
export interface OpenTurn {
  readonly turn: number;
  readonly calls: readonly ToolCall[];
  readonly stopReason: ModelStopReason;
  /** By call id. */
  readonly standing: ReadonlyMap<string, CallStanding>;
  /** What the calls' executors kept (`context.checkpoint`), by call id, in order. */
  readonly checkpoints: ReadonlyMap<string, readonly JsonValue[]>;
}

/** A run read back from its journal. */
export interface RestoredRun {
  readonly transcript: TranscriptMessage[];
  readonly maxTurns: number;
  readonly total: ModelUsage;
  readonly turn: number;
  /** The calls whose untrusted content the run took in (docs/security.md). */
  readonly taint: readonly FlowSource[];
  readonly open?: OpenTurn;
  /** Why it ended, when its journal says it did. */
  readonly ended?: "completed" | "max_turns";
}

/** The run as its journal tells it; throws on a journal that does not start with `run-started`. */
export function restoreRun(entries: readonly JournalEntry[]): RestoredRun {
  const [first] = entries;
  if (first?.kind !== "run-started") throw new Error("the journal does not begin with the run's start");
  const transcript = [...first.transcript];
  let total: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let turn = 0;
  let last: { message: AssistantMessage; stopReason: ModelStopReason; turn: number } | undefined;
  const standing = new Map<string, CallStanding>();
  const checkpoints = new Map<string, JsonValue[]>();
  const taint: FlowSource[] = [];
  let endedReason: "completed" | "max_turns" | undefined;
  const closeTurn = () => {
    if (last === undefined || last.message.toolCalls.length === 0) return;
    const results = last.message.toolCalls.map((call) => {
      const stood = standing.get(call.id);
      return stood?.kind === "ended" ? stood.result : undefined;
    });
    transcript.push({ role: "tool", results: results as ToolResultBlock[] });
  };
  for (const entry of entries.slice(1)) {
    switch (entry.kind) {
      case "model-turn":
        closeTurn();
        standing.clear();
        checkpoints.clear();
        transcript.push(entry.message);
        if (entry.usage !== undefined) total = addUsage(total, entry.usage);
        turn = entry.turn;
        last = { message: entry.message, stopReason: entry.stopReason, turn: entry.turn };
        break;
      case "call-started":
        standing.set(entry.toolCallId, { kind: "started" });
        break;
      case "call-checkpoint":
        checkpoints.set(entry.toolCallId, [...(checkpoints.get(entry.toolCallId) ?? []), entry.item]);
        break;
      case "call-ended": {
        const { result, errorCode } = entry;
        standing.set(
          entry.toolCallId,
          errorCode === undefined ? { kind: "ended", result } : { kind: "ended", result, errorCode },
        );
        break;
      }
      case "run-paused":
        for (const request of entry.pending) {
          const continuation = entry.continuations?.[request.approvalId];
          // A call its executor paused waits for its nested call's approval.
          const callId = continuation === undefined ? request.toolCallId : request.parentToolCallId;
          if (callId === undefined) continue;
          standing.set(
            callId,
            continuation === undefined ? { kind: "paused", request } : { kind: "paused", request, continuation },
          );
        }
        break;
      case "approval-decided":
        for (const [callId, stood] of standing) {
          if (stood.kind === "paused" && stood.request.approvalId === entry.approvalId) {
            standing.set(callId, { ...stood, decision: entry.decision });
          }
        }
        break;
      case "flow-tainted":
        taint.push(entry.source);
        break;
      case "run-ended":
        endedReason = entry.reason === "max_turns" ? "max_turns" : "completed";
        break;
    }
  }
  // A last answer without calls ended the run, whether or not its end was journaled.
  if (last !== undefined && last.message.toolCalls.length === 0) endedReason ??= "completed";
  const calls = last?.message.toolCalls ?? [];
  const complete = calls.every((call) => standing.get(call.id)?.kind === "ended");
  if (complete) closeTurn();
  const restored = { transcript, maxTurns: first.maxTurns, total, turn, taint };
  if (endedReason !== undefined) return { ...restored, ended: endedReason };
  if (complete || last === undefined) return restored;
  return { ...restored, open: { turn: last.turn, calls, stopReason: last.stopReason, standing, checkpoints } };
}
