// A journaled run: what it writes and when, and a run resumed from the journal its dead process left.
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import { memoryJournal } from "../../test/support/memory-journal.js";
import { sessionWith } from "../../test/support/session.js";
import { defineTool } from "../core/register/define-tool.js";
import type { JournalEntry } from "../journal/run-journal.js";
import { createScriptedModel } from "../providers/clients/scripted-model.js";
import type { ModelClient } from "../providers/clients/types.js";
import { runAgent } from "./run-agent.js";

/** `send` has a side effect (counted), `fetch` is idempotent, `deploy` is not; each records its context's key. */
function tools() {
  const runs: { tool: string; key: string | undefined }[] = [];
  const counted = (name: string, idempotent: boolean) =>
    defineTool({
      name,
      description: name,
      inputSchema: { type: "object" },
      idempotent,
      execute: (_input, context) => {
        runs.push({ tool: name, key: context.idempotencyKey });
        return `${name} done`;
      },
    });
  const session = sessionWith([counted("send", false), counted("fetch", true), counted("deploy", false)]);
  return { session, runs };
}

/** A model that counts the turns it was asked for. */
function countingModel(turns: Parameters<typeof createScriptedModel>[0]) {
  const scripted = createScriptedModel(turns);
  let asked = 0;
  const model: ModelClient = {
    ...scripted,
    complete: (request) => {
      asked++;
      return scripted.complete(request);
    },
  };
  return { model, asked: () => asked };
}

describe("a journaled run", () => {
  it("journals the start, each answer before its calls, each call's start before it runs and its end, then the end", async () => {
    const journal = memoryJournal();
    const { session, runs } = tools();
    const { model } = countingModel([{ toolCalls: [{ id: "s1", name: "send", input: {} }] }, { text: "sent" }]);
    const { done } = await drain(runAgent({ session, model, prompt: "send it", journal, runId: "r1" }));
    expect(done.reason).toBe("completed");
    expect(journal.runs.get("r1")?.map((entry) => entry.kind)).toEqual([
      "run-started",
      "model-turn",
      "call-started",
      "call-ended",
      "model-turn",
      "run-ended",
    ]);
    expect(runs).toEqual([{ tool: "send", key: "r1:s1" }]);
    const started = journal.runs.get("r1")?.[2] as Extract<JournalEntry, { kind: "call-started" }>;
    expect(started).toMatchObject({
      turn: 1,
      toolCallId: "s1",
      toolName: "send",
      inputDigest: expect.stringMatching(/^sha256:/),
    });
  });

  it("resumes the turn a dead process left: finished calls are not run again, an idempotent one runs again, another ends outcome-unknown, and the model is not asked again", async () => {
    const journal = memoryJournal();
    const calls = [
      { id: "s1", name: "send", input: {} },
      { id: "f1", name: "fetch", input: {} },
      { id: "d1", name: "deploy", input: {} },
    ];
    const block = (id: string, text: string) => ({
      type: "tool_result" as const,
      tool_use_id: id,
      content: [{ type: "text" as const, text }],
    });
    journal.runs.set("r1", [
      { kind: "run-started", transcript: [{ role: "user", text: "ship it" }], maxTurns: 5, at: 0 },
      {
        kind: "model-turn",
        turn: 1,
        message: { role: "assistant", text: "", toolCalls: calls },
        stopReason: "tool_use",
      },
      { kind: "call-started", turn: 1, toolCallId: "s1", toolName: "send", inputDigest: "sha256:x" },
      { kind: "call-ended", turn: 1, toolCallId: "s1", result: block("s1", "send done earlier") },
      { kind: "call-started", turn: 1, toolCallId: "f1", toolName: "fetch", inputDigest: "sha256:x" },
      { kind: "call-started", turn: 1, toolCallId: "d1", toolName: "deploy", inputDigest: "sha256:x" },
    ]);
    const { session, runs } = tools();
    const { model, asked } = countingModel([{ text: "shipped" }]);
    const { events, done } = await drain(
      runAgent({ session, model, prompt: "ignored on resume", journal, runId: "r1" }),
    );
    expect(runs).toEqual([{ tool: "fetch", key: "r1:f1" }]);
    expect(asked()).toBe(1);
    const results = events.flatMap((event) =>
      event.type === "tool_result" ? [[event.call.id, event.errorCode ?? "ok"]] : [],
    );
    expect(results).toEqual([
      ["s1", "ok"],
      ["d1", "outcome-unknown"],
      ["f1", "ok"],
    ]);
    expect(done).toMatchObject({ reason: "completed", turns: 2 });
    const tool = done.transcript.find((message) => message.role === "tool");
    expect(tool?.role === "tool" && tool.results.map((result) => result.tool_use_id)).toEqual(["s1", "f1", "d1"]);
    expect(JSON.stringify(tool)).toContain("may or may not have taken effect");
    // Resumed again (say it died once more): nothing runs twice and the model is not asked.
    const again = countingModel([]);
    const second = await drain(runAgent({ session, model: again.model, prompt: "", journal, runId: "r1" }));
    expect(second.done.reason).toBe("completed");
    expect(again.asked()).toBe(0);
    expect(runs).toHaveLength(1);
  });

  it("stops with held_elsewhere when another live process holds the run, running nothing", async () => {
    const journal = memoryJournal();
    journal.held = true;
    const { session, runs } = tools();
    const { model, asked } = countingModel([{ toolCalls: [{ id: "s1", name: "send", input: {} }] }]);
    const { done } = await drain(runAgent({ session, model, prompt: "go", journal, runId: "r1" }));
    expect(done.reason).toBe("held_elsewhere");
    expect(asked()).toBe(0);
    expect(runs).toEqual([]);
  });

  /** A journal whose append number `failing` rejects. */
  function failingJournal(failing: number) {
    const journal = memoryJournal();
    let appends = 0;
    return {
      ...journal,
      append: async (runId: string, entries: readonly JournalEntry[]) => {
        if (++appends === failing) throw new Error("disk full");
        return journal.append(runId, entries);
      },
    };
  }

  it("does not run a call whose start cannot be journaled: it ends execution-failed and the run goes on", async () => {
    const { session, runs } = tools();
    const { model } = countingModel([{ toolCalls: [{ id: "s1", name: "send", input: {} }] }, { text: "x" }]);
    const { events, done } = await drain(
      runAgent({ session, model, prompt: "go", journal: failingJournal(3), runId: "r1" }),
    );
    expect(runs).toEqual([]);
    const result = events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ errorCode: "execution-failed" });
    expect(JSON.stringify(result)).toContain("its start could not be recorded (disk full)");
    expect(done.reason).toBe("completed");
  });

  it("ends with journal_error, never a throw, when a model answer cannot be journaled; its calls never run", async () => {
    const { session, runs } = tools();
    const { model } = countingModel([{ toolCalls: [{ id: "s1", name: "send", input: {} }] }, { text: "x" }]);
    const { events, done } = await drain(
      runAgent({ session, model, prompt: "go", journal: failingJournal(2), runId: "r1" }),
    );
    expect(runs).toEqual([]);
    expect(done.reason).toBe("journal_error");
    expect(events.find((event) => event.type === "error")).toMatchObject({
      error: { message: expect.stringContaining("disk full") },
    });
  });

  it("needs a runId with a journal", () => {
    const { session } = tools();
    expect(() => runAgent({ session, model: createScriptedModel([]), prompt: "x", journal: memoryJournal() })).toThrow(
      /runId/,
    );
  });
});
