// Records a run: a model client and a session that pass everything through and write down what went by.
import type { AgentSession } from "../core/dispatch/session.js";
import type { DispatchOptions, ToolCallOutcome, ToolUse } from "../core/types.js";
import type { ModelClient } from "../providers/clients/types.js";
import { overrideSession } from "./override-session.js";
import { RECORDING_FORMAT, type RunRecord, toRecordedMessages } from "./recording.js";

/** What `createRecorder` gives back: run the agent with its `model` and `session`; `records` fill as it runs. */
export interface Recorder {
  readonly model: ModelClient;
  readonly session: AgentSession;
  /** The header, then every model turn and tool call so far, in order (`formatRecording` writes them). */
  readonly records: readonly RunRecord[];
}

/**
 * Wraps a model client and a session so a run through them is recorded (docs/replay.md): each model request (its
 * messages, system prompt and tool names) with the response, and each call the session dispatches with its result
 * block and error code. Calls paused for approval are not recorded (they have no result yet). Nothing else changes:
 * the model is asked and the tools run as without it. `onRecord` hears each record as it is made.
 */
export function createRecorder(options: {
  readonly model: ModelClient;
  readonly session: AgentSession;
  readonly onRecord?: (record: RunRecord) => void;
}): Recorder {
  const { model, session, onRecord } = options;
  const records: RunRecord[] = [];
  const add = (record: RunRecord) => {
    records.push(record);
    onRecord?.(record);
  };
  add({ kind: "header", format: RECORDING_FORMAT, recordedAt: new Date().toISOString(), model: model.name });
  let turn = 0;
  const recordingModel: ModelClient = {
    name: model.name,
    async complete(request) {
      const response = await model.complete(request);
      add({
        kind: "model",
        turn: ++turn,
        request: {
          systemPrompt: request.systemPrompt,
          tools: request.tools.map((tool) => ("descriptor" in tool ? tool.descriptor.name : tool.name)),
          messages: toRecordedMessages(request.messages),
        },
        response,
      });
      return response;
    },
  };
  const recordOutcomes = (calls: readonly ToolUse[], outcomes: readonly ToolCallOutcome[]) => {
    for (const [index, outcome] of outcomes.entries()) {
      const call = calls[index];
      if (call === undefined || outcome.pendingApproval !== undefined) continue;
      add({
        kind: "tool",
        turn,
        call: { id: call.id, name: call.name, input: call.input },
        result: outcome.block,
        ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      });
    }
  };
  const dispatchAllDetailed = async (calls: readonly ToolUse[], dispatchOptions?: DispatchOptions) => {
    const outcomes = await session.dispatchAllDetailed(calls, dispatchOptions);
    recordOutcomes(calls, outcomes);
    return outcomes;
  };
  const recordingSession = overrideSession(session, {
    dispatchAllDetailed,
    dispatchAll: async (calls, dispatchOptions) =>
      (await dispatchAllDetailed(calls, dispatchOptions)).map((outcome) => outcome.block),
  });
  return { model: recordingModel, session: recordingSession, records };
}
