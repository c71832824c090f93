// Record a run, then replay it offline: the same transcript, recorded tools not run, live tools run, edits caught.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { AgentTool } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { runAgent } from "../loop/run-agent.js";
import { createScriptedModel, type ScriptedTurn } from "../providers/clients/scripted-model.js";
import { createRecorder } from "./create-recorder.js";
import { createReplayModel } from "./create-replay-model.js";
import { createReplaySession } from "./create-replay-session.js";
import { formatRecording, parseRecording, type RunRecord } from "./recording.js";
import { ReplayError } from "./replay-error.js";

/** Tools that count their runs: `echo` answers its input, `fail` always errs, `clock` answers a new value each run. */
function countingTools(clockLive = false) {
  const runs = { echo: 0, fail: 0, clock: 0 };
  const tools: AgentTool[] = [
    defineTool({
      name: "echo",
      description: "Answers its input.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: ({ text }) => {
        runs.echo++;
        return `echo: ${String(text)}`;
      },
    }),
    defineTool({
      name: "fail",
      description: "Always fails.",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        runs.fail++;
        throw new Error("it failed");
      },
    }),
    defineTool({
      name: "clock",
      description: "A new value each run.",
      inputSchema: { type: "object", properties: {} },
      ...(clockLive ? { replay: "live" as const } : {}),
      execute: () => `tick ${++runs.clock}`,
    }),
  ];
  const session = createAgentSession({ registry: createToolRegistry({ custom: tools }), systemPrompt: "Test." });
  return { session, runs };
}

const SCRIPT: ScriptedTurn[] = [
  {
    text: "looking",
    toolCalls: [
      { name: "echo", input: { text: "a" } },
      { name: "fail", input: {} },
    ],
  },
  { toolCalls: [{ name: "echo", input: { text: "b" } }] },
  { text: "done" },
];

async function record(script: readonly ScriptedTurn[] = SCRIPT) {
  const { session } = countingTools();
  const recorder = createRecorder({ model: createScriptedModel([...script]), session });
  const { transcript, done } = await drain(
    runAgent({ session: recorder.session, model: recorder.model, prompt: "go" }),
  );
  expect(done.reason).toBe("completed");
  // Through the file format, as the CLI keeps it.
  return { records: parseRecording(formatRecording(recorder.records)), transcript };
}

async function replay(records: readonly RunRecord[], live: string[] = [], clockLive = false) {
  const { session, runs } = countingTools(clockLive);
  const model = createReplayModel(records);
  const run = runAgent({ session: createReplaySession(session, records, { live }), model, prompt: "go" });
  return { runs, model, run };
}

/** The recording with `edit` applied to its records. */
function edited(records: RunRecord[], edit: (records: RunRecord[]) => RunRecord[]): RunRecord[] {
  return edit(structuredClone(records));
}

describe("record and replay", () => {
  it("replays a recording to the same transcript without running the recorded tools", async () => {
    const { records, transcript } = await record();
    const { runs, model, run } = await replay(records);
    const replayed = await drain(run);
    expect(replayed.done.reason).toBe("completed");
    expect(replayed.transcript).toEqual(transcript);
    expect(runs).toEqual({ echo: 0, fail: 0, clock: 0 });
    expect(model.turnsLeft).toBe(0);
  });

  it("replays any scripted run to the same transcript (property)", async () => {
    const call = fc.oneof(
      fc.record({ name: fc.constant("echo"), input: fc.record({ text: fc.string({ maxLength: 20 }) }) }),
      fc.constant({ name: "fail", input: {} }),
      fc.constant({ name: "missing_tool", input: { x: 1 } }),
    );
    const turn = fc.record({ text: fc.string({ maxLength: 20 }), toolCalls: fc.array(call, { maxLength: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { maxLength: 4 }), fc.string({ maxLength: 20 }), async (turns, last) => {
        const { records, transcript } = await record([...turns, { text: last }]);
        const { runs, run } = await replay(records);
        const replayed = await drain(run);
        expect(replayed.transcript).toEqual(transcript);
        expect(runs.echo + runs.fail).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it("fails naming the call when a recorded tool input was changed", async () => {
    const { records } = await record();
    const changed = edited(records, (all) =>
      all.map((entry) =>
        entry.kind === "tool" && entry.call.id === "scripted-2-1"
          ? { ...entry, call: { ...entry.call, input: { text: "edited" } } }
          : entry,
      ),
    );
    const { runs, run } = await replay(changed);
    const error = await drain(run).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ReplayError);
    expect(error).toMatchObject({ code: "replay-diverged", turn: 2, callId: "scripted-2-1" });
    expect((error as Error).message).toMatch(/turn 2, call scripted-2-1: the input to echo differs/);
    expect((error as Error).message).toContain('recorded {"text":"edited"}, got {"text":"b"}');
    expect(runs.echo).toBe(0);
  });

  it("fails naming the call when a recorded call was removed", async () => {
    const { records } = await record();
    const removed = edited(records, (all) =>
      all.filter((entry) => !(entry.kind === "tool" && entry.call.id === "scripted-1-2")),
    );
    const error = await drain((await replay(removed)).run).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "replay-diverged", turn: 1, callId: "scripted-1-2" });
    expect((error as Error).message).toContain("a call to fail that is not in the recording");
  });

  it("fails naming the call when the recording has an extra call", async () => {
    const { records } = await record();
    const extra = edited(records, (all) => {
      const at = all.findIndex((entry) => entry.kind === "tool" && entry.call.id === "scripted-2-1");
      const copy = all[at] as Extract<RunRecord, { kind: "tool" }>;
      all.splice(at + 1, 0, { ...copy, call: { ...copy.call, id: "extra-1" } });
      return all;
    });
    const error = await drain((await replay(extra)).run).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "replay-diverged", turn: 2, callId: "extra-1" });
    expect((error as Error).message).toContain("the recording has a call to echo here that the run did not make");
  });

  it("ends the run with the model's divergence when a request differs from the recorded one", async () => {
    const { records } = await record();
    // Another prompt: the first request already differs.
    const other = runAgent({
      session: createReplaySession(countingTools().session, records),
      model: createReplayModel(records),
      prompt: "something else",
    });
    const { done } = await drain(other);
    expect(done.reason).toBe("model_error");
    expect(done.error).toMatchObject({ code: "replay-diverged", turn: 1 });
    expect(done.error?.message).toContain(
      'the model request differs at message 1: recorded {"role":"user","text":"go"}',
    );
  });

  it("runs live tools for real: their results, not the recorded ones, reach the model", async () => {
    const script: ScriptedTurn[] = [{ toolCalls: [{ name: "clock" }] }, { toolCalls: [{ name: "clock" }] }, {}];
    const { records } = await record(script);
    const live = await replay(records, ["clock"]);
    expect((await drain(live.run)).done.reason).toBe("completed");
    expect(live.runs.clock).toBe(2);
    // A recording whose clock said something else: the live result reaches the next request, which then differs.
    const other = JSON.parse(JSON.stringify(records).replaceAll("tick 1", "tick 9")) as RunRecord[];
    const diverging = await replay(other, ["clock"]);
    const { done } = await drain(diverging.run);
    expect(done.error).toMatchObject({ code: "replay-diverged", turn: 2 });
    expect(done.error?.message).toContain("the model request differs at message 3");
    expect(diverging.runs.clock).toBe(1);
  });

  it("runs a tool that declares replay: live for real, without a pattern naming it", async () => {
    const script: ScriptedTurn[] = [{ toolCalls: [{ name: "clock" }] }, {}];
    const { records } = await record(script);
    const live = await replay(records, [], true);
    expect((await drain(live.run)).done.reason).toBe("completed");
    expect(live.runs.clock).toBe(1);
    const recorded = await replay(records);
    expect((await drain(recorded.run)).done.reason).toBe("completed");
    expect(recorded.runs.clock).toBe(0);
  });

  it("rejects a recording that is not JSON lines, naming the line", async () => {
    expect(() => parseRecording('{"kind":"header","format":1}\nnot json\n', "bad.jsonl")).toThrow(
      expect.objectContaining({ code: "invalid-recording", message: expect.stringContaining("bad.jsonl, line 2") }),
    );
  });
});
