// A session that answers tool calls from a recording instead of running them, except tools that must run live.

import { canonicalJson } from "../core/approve/input-digest.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { compilePolicyPattern } from "../core/filter/policy.js";
import type { DispatchOptions, ToolCallOutcome, ToolUse } from "../core/types.js";
import { overrideSession } from "./override-session.js";
import type { RunRecord } from "./recording.js";
import { ReplayError } from "./replay-error.js";
import { shortJson } from "./short-json.js";

type ToolRecord = Extract<RunRecord, { kind: "tool" }>;

/** Options of `createReplaySession`. */
export interface ReplaySessionOptions {
  /** Tools that run for real during the replay (policy patterns: `read`, `mcp:docs`, `group:fs`). Default: none. */
  readonly live?: readonly string[];
}

/**
 * `session`, except that each batch of tool calls is answered with the recorded results of that turn's calls
 * (docs/replay.md): tools declaring `replay: "live"` and tools matching `live` run for real through the session. Before anything runs, the batch is
 * checked against the recording; the first difference rejects the dispatch (and so the run) with `ReplayError`
 * `replay-diverged`, naming the turn and the call: a call not in the recording, a recorded call not made, another
 * tool, or another input.
 */
export function createReplaySession(
  session: AgentSession,
  records: readonly RunRecord[],
  options: ReplaySessionOptions = {},
): AgentSession {
  const matchers = (options.live ?? []).map(compilePolicyPattern);
  const isLive = (name: string) => {
    const tool = session.activeTools.get(name);
    if (tool === undefined) return false;
    return tool.replay === "live" || matchers.some((matches) => matches(tool.descriptor, name.toLowerCase()));
  };
  const models = records.filter((record) => record.kind === "model");
  const tools = records.filter((record): record is ToolRecord => record.kind === "tool");
  let lastTurn = 0;
  const dispatchAllDetailed = async (
    calls: readonly ToolUse[],
    dispatchOptions?: DispatchOptions,
  ): Promise<ToolCallOutcome[]> => {
    // The turn whose recorded response made these calls; else the turn after the last one seen.
    const first = calls[0]?.id;
    const turn =
      models.find((record) => record.turn > lastTurn && record.response.toolCalls.some((call) => call.id === first))
        ?.turn ?? lastTurn + 1;
    lastTurn = turn;
    const recorded = tools.filter((record) => record.turn === turn);
    checkBatch(turn, calls, recorded);
    const live = calls.filter((call) => isLive(call.name));
    const liveOutcomes = live.length === 0 ? [] : await session.dispatchAllDetailed(live, dispatchOptions);
    return calls.map((call, index) => {
      const position = live.indexOf(call);
      if (position >= 0) return liveOutcomes[position] as ToolCallOutcome;
      const { result, errorCode } = recorded[index] as ToolRecord;
      return {
        block: result,
        result: { content: result.content, ...(result.is_error === true ? { isError: true } : {}) },
        durationMs: 0,
        ...(errorCode === undefined ? {} : { errorCode }),
      };
    });
  };
  return overrideSession(session, {
    dispatchAllDetailed,
    dispatchAll: async (calls, dispatchOptions) =>
      (await dispatchAllDetailed(calls, dispatchOptions)).map((outcome) => outcome.block),
  });
}

/** Throws at the first call of the batch that is not the recorded one at its place. */
function checkBatch(turn: number, calls: readonly ToolUse[], recorded: readonly ToolRecord[]): void {
  const diverged = (callId: string, what: string) =>
    new ReplayError("replay-diverged", `Replay diverged at turn ${turn}, call ${callId}: ${what}`, { turn, callId });
  for (let index = 0; index < Math.max(calls.length, recorded.length); index++) {
    const call = calls[index];
    const record = recorded[index];
    if (call === undefined) {
      const { id, name } = (record as ToolRecord).call;
      throw diverged(id, `the recording has a call to ${name} here that the run did not make`);
    }
    if (record === undefined) throw diverged(call.id, `a call to ${call.name} that is not in the recording`);
    if (record.call.id !== call.id || record.call.name !== call.name) {
      throw diverged(
        call.id,
        `a call to ${call.name} where the recording has call ${record.call.id} to ${record.call.name}`,
      );
    }
    if (canonicalJson(record.call.input) !== canonicalJson(call.input)) {
      throw diverged(
        call.id,
        `the input to ${call.name} differs: recorded ${shortJson(record.call.input)}, got ${shortJson(call.input)}`,
      );
    }
  }
}
