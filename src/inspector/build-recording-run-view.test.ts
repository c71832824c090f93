// buildRecordingRunView on recordings a real recorder wrote: a finished run, and one that stopped at its turn limit.
import { describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../test/support/session.js";
import { runAgent } from "../loop/index.js";
import { createScriptedModel, type ScriptedTurn } from "../providers/clients/scripted-model.js";
import { createRecorder } from "../replay/create-recorder.js";
import { formatRecording, parseRecording, type RunRecord } from "../replay/recording.js";
import { buildRecordingRunView } from "./build-recording-run-view.js";

const SCRIPT: ScriptedTurn[] = [
  {
    text: "Echoing.",
    toolCalls: [
      { id: "e1", name: "echo", input: { text: "hi" } },
      { id: "x1", name: "missing", input: {} },
    ],
    usage: { inputTokens: 80, outputTokens: 12 },
  },
  { text: "Done.", usage: { inputTokens: 90, outputTokens: 3 } },
];

/** A run recorded as `toolwire run --record` does, read back through the recording's own parser. */
async function record(script: ScriptedTurn[], maxTurns?: number): Promise<RunRecord[]> {
  const recorder = createRecorder({ model: createScriptedModel(script), session: sessionWith([echoTool()]) });
  for await (const _ of runAgent({ ...recorder, prompt: "echo hi", ...(maxTurns === undefined ? {} : { maxTurns }) }));
  return parseRecording(formatRecording(recorder.records));
}

describe("buildRecordingRunView", () => {
  it("shows each turn's tools, text and usage, and each call's input, result and error code", async () => {
    const view = buildRecordingRunView(await record(SCRIPT));
    expect(view.status).toBe("completed");
    expect(view.prompt).toBe("echo hi");
    expect(view.turns.map((turn) => [turn.turn, turn.text, turn.stopReason, turn.usage, turn.tools])).toEqual([
      [1, "Echoing.", "tool_use", { inputTokens: 80, outputTokens: 12 }, ["echo"]],
      [2, "Done.", "end", { inputTokens: 90, outputTokens: 3 }, ["echo"]],
    ]);
    const [echo, missing] = view.turns[0]?.calls ?? [];
    expect(echo).toMatchObject({ toolCallId: "e1", toolName: "echo", input: { text: "hi" }, status: "ok" });
    expect(echo?.result?.content).toEqual([{ type: "text", text: "hi" }]);
    expect(missing).toMatchObject({ toolCallId: "x1", status: "error", errorCode: "tool-not-found" });
  });

  it("shows a run that stopped before its last answer as stopped", async () => {
    const view = buildRecordingRunView(await record(SCRIPT, 1));
    expect(view.status).toBe("stopped");
    expect(view.turns.map((turn) => turn.calls.map((call) => call.status))).toEqual([["ok", "error"]]);
  });

  it("shows a call the model asked for with no recorded result as not started", async () => {
    const records = (await record(SCRIPT)).filter((entry) => !(entry.kind === "tool" && entry.call.id === "x1"));
    const view = buildRecordingRunView(records.slice(0, 3));
    expect(view.status).toBe("stopped");
    expect(view.turns[0]?.calls.map((call) => [call.toolCallId, call.status])).toEqual([
      ["e1", "ok"],
      ["x1", "not-started"],
    ]);
  });
});
