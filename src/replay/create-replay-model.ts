// A model client that answers from a recording, after checking each request is the one recorded.

import { canonicalJson } from "../core/approve/input-digest.js";
import type { ModelClient } from "../providers/clients/types.js";
import { type RunRecord, toRecordedMessages } from "./recording.js";
import { ReplayError } from "./replay-error.js";
import { shortJson } from "./short-json.js";

/** A `ModelClient` replaying a recording; `turnsLeft` is how many recorded turns were not asked for yet. */
export interface ReplayModel extends ModelClient {
  readonly turnsLeft: number;
}

/**
 * A model client that answers turn N with the recorded response of turn N (docs/replay.md), offline. Before it
 * answers, it checks the request's messages (the conversation: texts, tool calls and tool results; not the provider's
 * own copies, the system prompt or the tools offered) are the recorded ones, and rejects with `ReplayError`
 * `replay-diverged` naming the turn and the first message that differs, or when asked for a turn the recording
 * does not have. The run's tools still run unless the session is a `createReplaySession`.
 */
export function createReplayModel(records: readonly RunRecord[]): ReplayModel {
  const turns = records.filter((record) => record.kind === "model");
  let next = 0;
  return {
    name: "replay",
    get turnsLeft() {
      return turns.length - next;
    },
    async complete(request) {
      const recorded = turns[next];
      const turn = next + 1;
      if (recorded === undefined) {
        throw new ReplayError(
          "replay-diverged",
          `Replay diverged at turn ${turn}: the run asked the model for turn ${turn}, and the recording has ${turns.length} turns`,
          { turn },
        );
      }
      const got = toRecordedMessages(request.messages);
      const wanted = recorded.request.messages;
      for (let index = 0; index < Math.max(got.length, wanted.length); index++) {
        const a = wanted[index];
        const b = got[index];
        if (canonicalJson(a) === canonicalJson(b)) continue;
        const what =
          a === undefined
            ? `an extra message ${shortJson(b)}`
            : b === undefined
              ? `no message where the recording has ${shortJson(a)}`
              : `recorded ${shortJson(a)}, got ${shortJson(b)}`;
        throw new ReplayError(
          "replay-diverged",
          `Replay diverged at turn ${turn}: the model request differs at message ${index + 1}: ${what}`,
          { turn },
        );
      }
      next++;
      const response = recorded.response;
      if (response.text !== "") request.onTextDelta?.(response.text);
      return response;
    },
  };
}
