// buildRecordingRunView: a recording's records as the run the inspector shows.
import type { RunRecord } from "../replay/recording.js";
import type { StoredCall, StoredRun, StoredTurn } from "./stored-run.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The run a recording tells (docs/replay.md): each model turn with the tools offered, the model's text, stop reason
 * and usage, and each call it asked for with its input and recorded result. A recording ends where its run ended: a
 * last answer without calls is `completed`; anything else is `stopped` (the turn limit, an abort, a failed model or a
 * pause), and a call of the last turn with no recorded result is `not-started`. Takes records as `parseRecording`
 * returns them.
 */
export function buildRecordingRunView(records: readonly RunRecord[]): StoredRun {
  const turns = new Map<number, Mutable<Omit<StoredTurn, "calls">> & { calls: Mutable<StoredCall>[] }>();
  let startedAt: number | undefined;
  let prompt: string | undefined;
  for (const record of records) {
    if (record.kind === "header") {
      const at = Date.parse(record.recordedAt);
      if (Number.isFinite(at)) startedAt = at;
    } else if (record.kind === "model") {
      const { request, response } = record;
      if (prompt === undefined) {
        const asked = request.messages.findLast((message) => message.role === "user");
        if (asked?.role === "user") prompt = asked.text;
      }
      turns.set(record.turn, {
        turn: record.turn,
        text: response.text,
        stopReason: response.stopReason,
        ...(response.usage === undefined
          ? {}
          : { usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens } }),
        ...(Array.isArray(request.tools) ? { tools: request.tools } : {}),
        calls: response.toolCalls.map((call) => ({
          toolCallId: call.id,
          toolName: call.name,
          input: call.input,
          status: "not-started" as const,
        })),
      });
    } else {
      let turn = turns.get(record.turn);
      if (turn === undefined) {
        turn = { turn: record.turn, text: "", calls: [] };
        turns.set(record.turn, turn);
      }
      let call = turn.calls.find((known) => known.toolCallId === record.call.id);
      if (call === undefined) {
        call = { toolCallId: record.call.id, toolName: record.call.name, input: record.call.input, status: "ok" };
        turn.calls.push(call);
      }
      call.status = record.errorCode !== undefined || record.result.is_error === true ? "error" : "ok";
      call.result = record.result;
      if (record.errorCode !== undefined) call.errorCode = record.errorCode;
    }
  }
  const ordered = [...turns.values()].sort((a, b) => a.turn - b.turn);
  const last = ordered.at(-1);
  return {
    status: last !== undefined && last.calls.length === 0 ? "completed" : "stopped",
    ...(startedAt === undefined ? {} : { startedAt }),
    ...(prompt === undefined ? {} : { prompt }),
    turns: ordered,
  };
}
