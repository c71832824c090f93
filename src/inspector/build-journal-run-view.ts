// buildJournalRunView: a run journal's entries as the run the inspector shows, however far the run got.
import { isRecord } from "../core/json.js";
import type { ToolCallErrorCode, ToolResultBlock } from "../core/types.js";
import type { JournalEntry } from "../journal/run-journal.js";
import type { StoredCall, StoredRun, StoredRunStatus, StoredTurn } from "./stored-run.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
interface TurnDraft extends Mutable<Omit<StoredTurn, "calls">> {
  readonly calls: Map<string, Mutable<StoredCall>>;
}

/**
 * The run a journal tells (docs/durable-runs.md): each model turn with its text, stop reason and usage, and each call
 * it asked for with its input and, as the journal last says, its result and error code (a call resumed after a crash
 * shows its last outcome, `outcome-unknown` included). A call that started with no end is `interrupted`, one waiting
 * for a person's approval (`run-paused`) `awaiting-approval` with the decision once one is journaled, one never
 * started `not-started`; a call whose result brought untrusted content (`flow-tainted`) is marked. Entries of kinds
 * it does not know are skipped; it never throws, whatever prefix of a journal it gets.
 */
export function buildJournalRunView(entries: readonly JournalEntry[]): StoredRun {
  const turns = new Map<number, TurnDraft>();
  let startedAt: number | undefined;
  let prompt: string | undefined;
  let ended: StoredRunStatus | undefined;
  const turnOf = (turn: unknown): TurnDraft => {
    const number = typeof turn === "number" && Number.isFinite(turn) ? turn : 0;
    let draft = turns.get(number);
    if (draft === undefined) {
      draft = { turn: number, text: "", calls: new Map() };
      turns.set(number, draft);
    }
    return draft;
  };
  /** The newest call of that id, in whichever turn. */
  const findCall = (toolCallId: unknown): Mutable<StoredCall> | undefined => {
    if (typeof toolCallId !== "string") return undefined;
    for (const turn of [...turns.values()].reverse()) {
      const call = turn.calls.get(toolCallId);
      if (call !== undefined) return call;
    }
    return undefined;
  };
  const callOf = (turn: TurnDraft, toolCallId: string, toolName: unknown): Mutable<StoredCall> => {
    let call = turn.calls.get(toolCallId);
    if (call === undefined) {
      call = { toolCallId, toolName: typeof toolName === "string" ? toolName : "?", status: "not-started" };
      turn.calls.set(toolCallId, call);
    }
    return call;
  };
  for (const entry of entries as readonly unknown[]) {
    if (!isRecord(entry)) continue;
    if (entry.kind === "run-started") {
      if (typeof entry.at === "number") startedAt = entry.at;
      const transcript: unknown[] = Array.isArray(entry.transcript) ? entry.transcript : [];
      const last = transcript.findLast((message) => isRecord(message) && message.role === "user");
      if (isRecord(last) && typeof last.text === "string") prompt = last.text;
    } else if (entry.kind === "model-turn") {
      const turn = turnOf(entry.turn);
      const message = isRecord(entry.message) ? entry.message : {};
      turn.text = typeof message.text === "string" ? message.text : "";
      if (typeof entry.stopReason === "string") turn.stopReason = entry.stopReason;
      if (isRecord(entry.usage)) turn.usage = usageOf(entry.usage);
      for (const asked of Array.isArray(message.toolCalls) ? (message.toolCalls as unknown[]) : []) {
        if (!isRecord(asked) || typeof asked.id !== "string") continue;
        callOf(turn, asked.id, asked.name).input = asked.input;
      }
    } else if (entry.kind === "call-started" && typeof entry.toolCallId === "string") {
      const call = callOf(turnOf(entry.turn), entry.toolCallId, entry.toolName);
      // An idempotent call run again after a crash starts again: its earlier outcome, if any, is gone.
      call.status = "interrupted";
      delete call.result;
      delete call.errorCode;
    } else if (entry.kind === "call-ended" && typeof entry.toolCallId === "string") {
      const call = callOf(turnOf(entry.turn), entry.toolCallId, undefined);
      const result = isRecord(entry.result) ? (entry.result as unknown as ToolResultBlock) : undefined;
      const errorCode = typeof entry.errorCode === "string" ? (entry.errorCode as ToolCallErrorCode) : undefined;
      call.status = errorCode !== undefined || result?.is_error === true ? "error" : "ok";
      if (result === undefined) delete call.result;
      else call.result = result;
      if (errorCode === undefined) delete call.errorCode;
      else call.errorCode = errorCode;
    } else if (entry.kind === "run-paused" && Array.isArray(entry.pending)) {
      const turn = turnOf(entry.turn);
      const continuations = isRecord(entry.continuations) ? entry.continuations : {};
      for (const request of entry.pending as unknown[]) {
        if (!isRecord(request) || typeof request.approvalId !== "string") continue;
        // A call its executor paused (a code-mode program) waits for its nested call's approval.
        const waiting = Object.hasOwn(continuations, request.approvalId)
          ? request.parentToolCallId
          : request.toolCallId;
        if (typeof waiting !== "string") continue;
        const call = callOf(turn, waiting, request.toolName);
        if (call.status !== "not-started" && call.status !== "awaiting-approval") continue;
        call.status = "awaiting-approval";
        call.approval = { approvalId: request.approvalId };
      }
    } else if (entry.kind === "approval-decided" && isRecord(entry.decision)) {
      for (const turn of turns.values()) {
        for (const call of turn.calls.values()) {
          const approvalId = call.approval?.approvalId;
          if (approvalId === undefined || approvalId !== entry.approvalId) continue;
          call.approval = { approvalId, outcome: entry.decision.approve === true ? "approved" : "declined" };
        }
      }
    } else if (entry.kind === "flow-tainted" && isRecord(entry.source)) {
      const call = findCall(entry.source.toolCallId);
      if (call !== undefined) call.flow = "source";
    } else if (entry.kind === "run-ended") {
      ended = entry.reason === "max_turns" ? "max_turns" : "completed";
    }
  }
  const ordered = [...turns.values()].sort((a, b) => a.turn - b.turn);
  const last = ordered.at(-1);
  // As a resume reads it: a last answer without calls ended the run, whether or not its end was written.
  const waits = [...(last?.calls.values() ?? [])].some((call) => call.status === "awaiting-approval");
  const status =
    ended ?? (last !== undefined && last.calls.size === 0 ? "completed" : waits ? "awaiting_approval" : "stopped");
  return {
    status,
    ...(startedAt === undefined ? {} : { startedAt }),
    ...(prompt === undefined ? {} : { prompt }),
    turns: ordered.map(({ calls, ...turn }) => ({ ...turn, calls: [...calls.values()] })),
  };
}

function usageOf(usage: Record<string, unknown>): { inputTokens: number; outputTokens: number } {
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  return { inputTokens: count(usage.inputTokens), outputTokens: count(usage.outputTokens) };
}
