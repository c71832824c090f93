// The scripted model: canned turns from a JSON file, expectations checked, precise errors for bad scripts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain, eventTrace } from "../../../test/support/agent-harness.js";
import { runAgent } from "../../loop/run-agent.js";
import { ModelError } from "../errors.js";
import { createScriptedModel, loadScriptedModel } from "./scripted-model.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function scriptFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "toolwire-script-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "turns.json");
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

async function workspace() {
  const created = await createNoteWorkspace();
  cleanups.push(created.cleanup);
  return created;
}

const GOOD_SCRIPT = {
  turns: [
    {
      text: "Reading both.",
      toolCalls: [
        { id: "c1", name: "read_note", input: { path: "note.txt" } },
        { name: "read_note", input: { path: "missing.txt" } },
      ],
      usage: { inputTokens: 10, outputTokens: 5 },
      expect: { tools: ["read_note"], systemPromptContains: "test agent" },
    },
    {
      text: "Your note says to ship v1 on Friday; the other file does not exist.",
      expect: {
        toolResults: [
          { id: "c1", isError: false, equals: "ship v1 on Friday\n" },
          { isError: true, contains: "ENOENT" },
        ],
      },
    },
  ],
};

describe("createScriptedModel", () => {
  it("replays the turns of a JSON file through the loop and checks each turn's expectations", async () => {
    const { session } = await workspace();
    const file = await scriptFile(GOOD_SCRIPT);
    const { events, done } = await drain(runAgent({ session, model: createScriptedModel(file), prompt: "Read them." }));
    expect(eventTrace(events)).toContain("tool_result:error");
    expect(done).toMatchObject({ reason: "completed", turns: 2, usage: { inputTokens: 10, outputTokens: 5 } });
    const assistant = done.transcript[1];
    expect(assistant).toMatchObject({ role: "assistant", toolCalls: [{ id: "c1" }, { id: "scripted-1-2" }] });
    expect(done.transcript.at(-1)).toEqual({ role: "assistant", text: GOOD_SCRIPT.turns[1]?.text, toolCalls: [] });
  });

  it("accepts a bare array of turns, given in code", async () => {
    const { session } = await workspace();
    const model = createScriptedModel([{ text: "Hello." }]);
    const { done } = await drain(runAgent({ session, model, prompt: "hi" }));
    expect(done).toMatchObject({ reason: "completed", turns: 1 });
    expect(model.name).toBe("scripted");
  });

  it("fails the turn with expectation-failed, naming what differed", async () => {
    const { session } = await workspace();
    const script = structuredClone(GOOD_SCRIPT);
    (script.turns[1]?.expect?.toolResults?.[0] as { equals: string }).equals = "something else";
    const { done } = await drain(runAgent({ session, model: createScriptedModel(script), prompt: "Read them." }));
    expect(done.reason).toBe("model_error");
    expect(done.error).toBeInstanceOf(ModelError);
    expect(done.error).toMatchObject({ code: "expectation-failed" });
    expect(done.error?.message).toBe(
      'Scripted model scripted, turn 2: result 0: expected text "something else", got "ship v1 on Friday\\n"',
    );
    // The failing turn added nothing; every call before it has its result.
    expect(done.transcript.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("fails with script-exhausted when the loop asks for more turns than the script has", async () => {
    const { session } = await workspace();
    const model = createScriptedModel([{ toolCalls: [{ name: "read_note", input: { path: "note.txt" } }] }]);
    const { done } = await drain(runAgent({ session, model, prompt: "go" }));
    expect(done.error).toMatchObject({
      code: "script-exhausted",
      message: "Scripted model scripted has 1 turns and was asked for turn 2",
    });
  });

  it("rejects a malformed script with invalid-script naming the bad path", async () => {
    const cases: [unknown, string][] = [
      [{ turns: "no" }, 'turns: expected an array of turns (or a file { "turns": [...] })'],
      [[{ text: 3 }], "turns[0].text: expected a string"],
      [[{}, { toolCalls: [{ input: {} }] }], "turns[1].toolCalls[0].name: expected a string"],
      [[{ stopReason: "bored" }], "turns[0].stopReason: expected one of end, tool_use, max_tokens, refusal, other"],
      [
        [{ expect: { toolResults: [{ isError: "yes" }] } }],
        "turns[0].expect.toolResults[0].isError: expected a boolean",
      ],
      [[{ usage: { inputTokens: 1 } }], "turns[0].usage: expected { inputTokens: number, outputTokens: number }"],
    ];
    for (const [script, message] of cases) {
      const file = await scriptFile(script);
      const error = await loadScriptedModel(file).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ code: "invalid-script", message: `Invalid script scripted:${file}: ${message}` });
    }
  });

  it("reports a missing or non-JSON file as script-unreadable", async () => {
    const notJson = await scriptFile("{ turns: [");
    await expect(loadScriptedModel(notJson)).rejects.toMatchObject({ code: "script-unreadable" });
    const missing = join(tmpdir(), "toolwire-no-such-dir", "turns.json");
    await expect(loadScriptedModel(missing)).rejects.toMatchObject({
      code: "script-unreadable",
      message: expect.stringContaining(missing),
    });
    // Given to createScriptedModel, the same file fails the first turn, and the run reports it.
    const { session } = await workspace();
    const { done } = await drain(runAgent({ session, model: createScriptedModel(missing), prompt: "hi" }));
    expect(done.error).toMatchObject({ code: "script-unreadable" });
  });
});
