// The agent loop: turns, events, abort at every stage, maxTurns, and the rule that every call gets a result.
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain, eventTrace } from "../../test/support/agent-harness.js";
import { defineTool } from "../core/register/define-tool.js";
import { createScriptedModel } from "../providers/clients/scripted-model.js";
import type { ModelClient, ModelRequest, TranscriptMessage } from "../providers/clients/types.js";
import { AgentLoopError } from "./errors.js";
import { runAgent } from "./run-agent.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A tool that runs until its call is aborted. */
const waitForAbort = defineTool({
  name: "wait_for_abort",
  description: "Waits until the call is aborted.",
  inputSchema: { type: "object", properties: {} },
  execute: (_input, { signal }) =>
    new Promise<string>((_resolve, reject) =>
      signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
    ),
});

async function workspace() {
  const created = await createNoteWorkspace([waitForAbort]);
  cleanups.push(created.cleanup);
  return created;
}

/** Every tool call in the transcript, and every result, by id: they must pair up one to one. */
function callsAndResults(transcript: readonly TranscriptMessage[]) {
  const calls: string[] = [];
  const results: string[] = [];
  for (const message of transcript) {
    if (message.role === "assistant") calls.push(...message.toolCalls.map((call) => call.id));
    if (message.role === "tool") results.push(...message.results.map((result) => result.tool_use_id));
  }
  return { calls, results };
}

/** A model client driven by a function, recording what it was asked. */
function modelFrom(complete: (request: ModelRequest) => ReturnType<ModelClient["complete"]>) {
  const requests: ModelRequest[] = [];
  const model: ModelClient = {
    name: "test-model",
    complete: (request) => {
      requests.push(request);
      return complete(request);
    },
  };
  return { model, requests };
}

describe("runAgent", () => {
  it("stops at maxTurns after answering the last turn's calls", async () => {
    const { session } = await workspace();
    const turn = { toolCalls: [{ name: "read_note", input: { path: "note.txt" } }] };
    const model = createScriptedModel([turn, turn, turn, turn]);
    const { events, done, transcript } = await drain(runAgent({ session, model, prompt: "loop", maxTurns: 2 }));
    expect(done).toMatchObject({ reason: "max_turns", turns: 2 });
    expect(events.filter((event) => event.type === "turn_start")).toHaveLength(2);
    expect(transcript.at(-1)?.role).toBe("tool");
    const { calls, results } = callsAndResults(transcript);
    expect(results).toEqual(calls);
  });

  it("leaves no abort listener behind on a long-lived signal, turn after turn", async () => {
    const { session } = await workspace();
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    }) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++;
      remove(...args);
    }) as typeof remove;
    const turn = { toolCalls: [{ name: "read_note", input: { path: "note.txt" } }] };
    const model = createScriptedModel(Array.from({ length: 15 }, () => turn));
    const { done } = await drain(runAgent({ session, model, prompt: "loop", maxTurns: 15, signal }));
    expect(done).toMatchObject({ reason: "max_turns", turns: 15 });
    expect(added).toBeGreaterThanOrEqual(15);
    expect(removed).toBe(added);
  });

  it("gives every call already announced an aborted result when the signal aborts during the tools", async () => {
    const { session } = await workspace();
    const controller = new AbortController();
    // Abort once read_note has finished and both waiting calls are running.
    let pending = 3;
    const step = () => {
      if (--pending === 0) controller.abort();
    };
    session.on("tool_execution_start", (event) => event.toolName === "wait_for_abort" && step());
    session.on("tool_execution_end", (event) => event.toolName === "read_note" && step());
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "read_note", input: { path: "note.txt" } },
          { id: "b", name: "wait_for_abort" },
          { id: "c", name: "wait_for_abort" },
        ],
      },
      { text: "never reached" },
    ]);
    const { events, done, transcript } = await drain(
      runAgent({ session, model, prompt: "go", signal: controller.signal }),
    );
    expect(done).toMatchObject({ reason: "aborted", turns: 1 });
    expect(eventTrace(events)).toEqual([
      "turn_start",
      "tool_call:read_note",
      "tool_call:wait_for_abort",
      "tool_call:wait_for_abort",
      "tool_result:ok",
      "tool_result:error",
      "tool_result:error",
      "turn_end",
      "done:aborted",
    ]);
    const tool = transcript.at(-1);
    expect(tool?.role).toBe("tool");
    if (tool?.role === "tool") {
      expect(tool.results.map((result) => result.tool_use_id)).toEqual(["a", "b", "c"]);
      expect(tool.results[1]?.content[0]).toMatchObject({ text: expect.stringContaining("aborted") });
    }
  });

  it("ends at once when the signal aborts during a model turn, even if the model ignores the signal", async () => {
    const { session } = await workspace();
    const controller = new AbortController();
    const { model } = modelFrom(() => {
      setImmediate(() => controller.abort());
      return new Promise(() => {}); // never settles
    });
    const { events, done } = await drain(runAgent({ session, model, prompt: "hi", signal: controller.signal }));
    expect(eventTrace(events)).toEqual(["turn_start", "turn_end", "done:aborted"]);
    expect(done.transcript).toEqual([{ role: "user", text: "hi" }]);
  });

  it("runs no turn when the signal is already aborted", async () => {
    const { session } = await workspace();
    const { model, requests } = modelFrom(async () => ({ text: "x", toolCalls: [], stopReason: "end" }));
    const { events } = await drain(runAgent({ session, model, prompt: "hi", signal: AbortSignal.abort() }));
    expect(eventTrace(events)).toEqual(["done:aborted"]);
    expect(requests).toHaveLength(0);
  });

  it("streams text deltas in order before the turn's whole text", async () => {
    const { session } = await workspace();
    const { model } = modelFrom(async (request) => {
      for (const piece of ["Hel", "lo", " there"]) {
        request.onTextDelta?.(piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { text: "Hello there", toolCalls: [], stopReason: "end" };
    });
    const { events } = await drain(runAgent({ session, model, prompt: "hi" }));
    expect(events.filter((event) => event.type === "model_text_delta").map((event) => event.text)).toEqual([
      "Hel",
      "lo",
      " there",
    ]);
    expect(eventTrace(events)).toEqual([
      "turn_start",
      "model_text_delta",
      "model_text_delta",
      "model_text_delta",
      "model_text",
      "turn_end",
      "done:completed",
    ]);
  });

  it("streams tool-call deltas interleaved with text as they arrive, dropping malformed ones", async () => {
    const { session } = await workspace();
    const { model } = modelFrom(async (request) => {
      request.onTextDelta?.("Reading");
      request.onToolCallDelta?.({ index: 0, id: "c1", name: "read_note", argumentsDelta: "" });
      await new Promise((resolve) => setImmediate(resolve));
      request.onToolCallDelta?.({ index: 0, argumentsDelta: '{"path":' });
      request.onTextDelta?.(".");
      request.onToolCallDelta?.({ index: 0, argumentsDelta: '"note.txt"}' });
      for (const junk of [{ index: -1, argumentsDelta: "x" }, { index: 0 }, { index: 0, argumentsDelta: "" }, null]) {
        request.onToolCallDelta?.(junk as never);
      }
      return {
        text: "Reading.",
        toolCalls: [{ id: "c1", name: "read_note", input: { path: "note.txt" } }],
        stopReason: "tool_use",
      };
    });
    const { events } = await drain(runAgent({ session, model, prompt: "hi", maxTurns: 1 }));
    expect(events.slice(0, 7)).toEqual([
      { type: "turn_start", turn: 1 },
      { type: "model_text_delta", turn: 1, text: "Reading" },
      { type: "model_tool_call_delta", turn: 1, index: 0, id: "c1", name: "read_note", argumentsDelta: "" },
      { type: "model_tool_call_delta", turn: 1, index: 0, argumentsDelta: '{"path":' },
      { type: "model_text_delta", turn: 1, text: "." },
      { type: "model_tool_call_delta", turn: 1, index: 0, argumentsDelta: '"note.txt"}' },
      { type: "model_text", turn: 1, text: "Reading." },
    ]);
    expect(eventTrace(events).slice(7, 9)).toEqual(["tool_call:read_note", "tool_result:ok"]);
  });

  it("offers the session's active tools and its base prompt on every turn: the tools are not listed twice", async () => {
    const { session } = await workspace();
    session.setActiveToolsByName(["read_note"]);
    const { model, requests } = modelFrom(async () => ({ text: "ok", toolCalls: [], stopReason: "end" }));
    await drain(runAgent({ session, model, prompt: "hi" }));
    expect(requests[0]?.tools.map((tool) => ("descriptor" in tool ? tool.descriptor.name : tool.name))).toEqual([
      "read_note",
    ]);
    expect(requests[0]?.systemPrompt).toBe(session.baseSystemPrompt);
    expect(requests[0]?.systemPrompt).not.toContain("- read_note:");
  });

  it("lists the tools in the system prompt too with toolsInSystemPrompt", async () => {
    const { session } = await workspace();
    session.setActiveToolsByName(["read_note"]);
    const { model, requests } = modelFrom(async () => ({ text: "ok", toolCalls: [], stopReason: "end" }));
    await drain(runAgent({ session, model, prompt: "hi", toolsInSystemPrompt: true }));
    expect(requests[0]?.systemPrompt).toBe(session.systemPrompt);
    expect(requests[0]?.systemPrompt).toContain("- read_note:");
  });

  it("continues a conversation given as messages", async () => {
    const { session } = await workspace();
    const earlier: TranscriptMessage[] = [
      { role: "user", text: "first" },
      { role: "assistant", text: "answer", toolCalls: [] },
    ];
    const { model, requests } = modelFrom(async () => ({ text: "second answer", toolCalls: [], stopReason: "end" }));
    const { transcript } = await drain(runAgent({ session, model, prompt: "second", messages: earlier }));
    expect(requests[0]?.messages).toEqual([...earlier, { role: "user", text: "second" }]);
    expect(transcript).toHaveLength(4);
  });

  it("keeps going after a call to an unknown tool: the model gets an error result", async () => {
    const { session } = await workspace();
    const model = createScriptedModel([
      { toolCalls: [{ id: "x", name: "nope" }] },
      { text: "Sorry.", expect: { toolResults: [{ id: "x", isError: true, contains: "Tool nope not found" }] } },
    ]);
    const { done } = await drain(runAgent({ session, model, prompt: "hi" }));
    expect(done.reason).toBe("completed");
  });

  it("turns a model that throws a non-Error or returns garbage into a model_error", async () => {
    const { session } = await workspace();
    const thrower = modelFrom(() => Promise.reject("socket closed")).model;
    const first = await drain(runAgent({ session, model: thrower, prompt: "hi" }));
    expect(first.done).toMatchObject({ reason: "model_error", error: { message: "socket closed" } });
    const garbage = modelFrom(async () => ({ nothing: true }) as never).model;
    const second = await drain(runAgent({ session, model: garbage, prompt: "hi" }));
    expect(second.done.error?.message).toBe("Model test-model returned something that is not a turn");
  });

  it("refuses bad options at once with invalid-options", async () => {
    const { session } = await workspace();
    const model = createScriptedModel([]);
    const bad: [Record<string, unknown>, string][] = [
      [{ session, model, prompt: "x", maxTurns: 0 }, "maxTurns must be a positive integer, got 0"],
      [{ session, model, prompt: "x", maxTurns: 1.5 }, "maxTurns must be a positive integer, got 1.5"],
      [{ model, prompt: "x" }, "runAgent needs a session (createAgentSession)"],
      [{ session, prompt: "x" }, "runAgent needs a model with complete()"],
      [{ session, model, prompt: 42 }, "runAgent needs a prompt string, got number"],
    ];
    for (const [options, message] of bad) {
      let caught: unknown;
      try {
        runAgent(options as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AgentLoopError);
      expect(caught).toMatchObject({ code: "invalid-options", message });
    }
  });
});

describe("runAgent's tool results", () => {
  it("carry each call's duration and, for a failed call, its error code", async () => {
    const { session } = await workspace();
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "read_note", input: { path: "note.txt" } },
          { name: "no_such_tool", input: {} },
        ],
      },
      { text: "done" },
    ]);
    const events = [];
    for await (const event of runAgent({ session, model, prompt: "go" })) events.push(event);
    const results = events.flatMap((event) => (event.type === "tool_result" ? [event] : []));
    expect(results).toHaveLength(2);
    expect(results[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(results[0]?.errorCode).toBeUndefined();
    expect(results[1]?.errorCode).toBe("tool-not-found");
  });
});
