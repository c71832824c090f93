// toPiTools under pi's real Agent: a scripted model calls toolwire tools, and the session's policy, validation,
// hooks, approvals and errors decide what the model reads back.
import * as piAgentCore from "@mariozechner/pi-agent-core";
import { Agent, type AgentEvent } from "@mariozechner/pi-agent-core";
import * as piAi from "@mariozechner/pi-ai";
import {
  type AssistantMessage,
  type Context,
  createAssistantMessageEventStream,
  fauxAssistantMessage,
  fauxToolCall,
  type Model,
  type ToolResultMessage,
} from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { add, blockRemove, deploy, fail, remove, secret } from "../../../test/support/framework-tools.js";
import { defineTool } from "../../core/register/define-tool.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { AgentTool, ToolExecutionEndEvent } from "../../core/types.js";
import { createAgentSession } from "../../create-agent-session.js";
import { ToolCallFailedError } from "../tool-call-failed-error.js";
import { toPiTools } from "./to-pi-tools.js";

const MODEL: Model<string> = {
  id: "scripted",
  name: "scripted",
  api: "scripted",
  provider: "scripted",
  baseUrl: "",
  reasoning: false,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 1_000,
};

const slow = defineTool({
  name: "slow",
  description: "Reports progress, then a chart",
  inputSchema: { type: "object", properties: {} },
  execute: async (_input, context) => {
    context.onUpdate({ content: [{ type: "text", text: "halfway" }], details: { percent: 50 } });
    return {
      content: [
        { type: "text", text: "done" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "resource_link", uri: "file:///report.csv", name: "report.csv" },
      ],
    };
  },
});

function createSession(options: { approve?: boolean } = {}) {
  const registry = createToolRegistry({
    custom: [add, fail, remove, secret, slow, deploy],
    policy: [{ label: "team", deny: ["secret"] }],
  });
  return createAgentSession({
    registry,
    beforeToolCall: [blockRemove],
    approvals: {
      require: ["deploy"],
      approver: () => (options.approve === true ? { approve: true } : { approve: false, reason: "not on a Friday" }),
    },
  });
}

/** Whether the pi here is pi 1 (pi-1.test.ts maps the 0.73 name to it), which reads a result's `isError`. */
const PI_1 = "runToolCall" in piAgentCore;

/** A tool whose own error result carries details, which only pi 1's `isError` result can pass on. */
const lookup = defineTool({
  name: "lookup",
  description: "Looks a row up",
  inputSchema: { type: "object", properties: {} },
  execute: async () => ({ content: [{ type: "text", text: "No row 7" }], details: { row: 7 }, isError: true }),
});

// pi 1 sends the model its tools in system messages, read back by its getCurrentTools; pi 0.73 in `context.tools`.
const toolsInSystemMessages =
  (piAi as { getCurrentTools?: (messages: Context["messages"]) => Context["tools"] }).getCurrentTools ??
  (() => undefined);

/** A model that asks for `calls` in its first turn and stops in its second, recording every context it was sent. */
function scriptedModel(calls: { name: string; input: Record<string, unknown> }[]) {
  const contexts: Context[] = [];
  const turns: AssistantMessage[] = [
    fauxAssistantMessage(
      calls.map((call, index) => fauxToolCall(call.name, call.input, { id: `call_${index + 1}` })),
      { stopReason: "toolUse" },
    ),
    fauxAssistantMessage("All done.", { stopReason: "stop" }),
  ];
  const streamFn = (_model: Model<string>, context: Context) => {
    // A copy of what the model was sent (the tools' execute functions left out).
    contexts.push({
      messages: structuredClone(context.messages),
      tools: (context.tools ?? toolsInSystemMessages(context.messages))?.map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      })),
    });
    const message = turns.shift() ?? fauxAssistantMessage("Nothing more.", { stopReason: "stop" });
    const stream = createAssistantMessageEventStream();
    stream.push({ type: "done", reason: message.stopReason as "stop" | "toolUse", message });
    return stream;
  };
  return { streamFn, contexts };
}

/** One run of pi's Agent over the session's tools: what the model was sent in its second turn, and pi's events. */
async function runPi(
  session: ReturnType<typeof createSession>,
  calls: { name: string; input: Record<string, unknown> }[],
) {
  const model = scriptedModel(calls);
  const agent = new Agent({
    initialState: { model: MODEL, systemPrompt: session.systemPrompt, tools: toPiTools(session) },
    streamFn: model.streamFn,
  });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => {
    events.push(event);
  });
  await agent.prompt("go");
  const second = model.contexts[1];
  const results = (second?.messages ?? []).filter(
    (message): message is ToolResultMessage => message.role === "toolResult",
  );
  return { results, contexts: model.contexts, events, messages: agent.state.messages };
}

function ends(session: ReturnType<typeof createSession>) {
  const seen: ToolExecutionEndEvent[] = [];
  session.on("tool_execution_end", (event) => seen.push(event));
  return seen;
}

describe("toPiTools under pi's Agent", () => {
  it("offers the model the session's active tools with their JSON Schemas, and none that policy removed", async () => {
    const { contexts } = await runPi(createSession(), []);
    const tools = contexts[0]?.tools ?? [];
    expect(tools.map((tool) => tool.name)).toEqual(["add", "deploy", "fail", "remove", "slow"]);
    expect(tools[0]?.parameters).toEqual(add.descriptor.inputSchema);
  });

  it("gives the model a valid call's result, with details kept for programs", async () => {
    const session = createSession();
    const seen = ends(session);
    const { results } = await runPi(session, [{ name: "add", input: { a: 2, b: 3 } }]);
    expect(results).toMatchObject([
      {
        toolCallId: "call_1",
        toolName: "add",
        isError: false,
        content: [{ type: "text", text: "5" }],
        details: { sum: 5 },
      },
    ]);
    expect(seen).toMatchObject([{ toolCallId: "call_1", toolName: "add", isError: false }]);
  });

  it("gives the model the block reason of a before hook, and the tool does not run", async () => {
    const session = createSession();
    const seen = ends(session);
    const { results } = await runPi(session, [{ name: "remove", input: { path: "a.txt" } }]);
    expect(results).toMatchObject([
      {
        toolCallId: "call_1",
        isError: true,
        content: [{ type: "text", text: "Tool call blocked: removing files needs a ticket" }],
      },
    ]);
    expect(seen).toMatchObject([{ toolCallId: "call_1", errorCode: "blocked-by-hook" }]);
  });

  it("gives the model the executor's error message as an error result", async () => {
    const session = createSession();
    const { results, events } = await runPi(session, [{ name: "fail", input: {} }]);
    expect(results).toHaveLength(1);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.content).toEqual([{ type: "text", text: "Tool fail failed: the disk is full" }]);
    const end = events.find((event) => event.type === "tool_execution_end");
    expect(end).toMatchObject({ isError: true, result: { content: results[0]?.content } });
  });

  it.runIf(PI_1)("answers pi 1 with an isError result, so an error result's details reach pi's messages", async () => {
    const session = createAgentSession({ registry: createToolRegistry({ custom: [lookup] }) });
    const { results, events } = await runPi(session, [{ name: "lookup", input: {} }]);
    expect(results).toMatchObject([
      { isError: true, content: [{ type: "text", text: "No row 7" }], details: { row: 7 } },
    ]);
    const end = events.find((event) => event.type === "tool_execution_end");
    expect(end).toMatchObject({ isError: true, result: { details: { row: 7 } } });
  });

  it("gives the model pi's own validation error for an invalid input, which never reaches the session", async () => {
    const session = createSession();
    const seen = ends(session);
    const { results } = await runPi(session, [{ name: "add", input: { a: "two", b: 3 } }]);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining('Validation failed for tool "add"'),
    });
    expect(seen).toEqual([]);
  });

  it("gives the model the decline of the session's approver, and the tool does not run", async () => {
    const session = createSession();
    const seen = ends(session);
    const { results } = await runPi(session, [{ name: "deploy", input: {} }]);
    expect(results).toMatchObject([
      { isError: true, content: [{ type: "text", text: "Tool call declined: not on a Friday" }] },
    ]);
    expect(seen).toMatchObject([{ errorCode: "approval-declined" }]);
  });

  it("runs a call the approver approves", async () => {
    const { results } = await runPi(createSession({ approve: true }), [{ name: "deploy", input: {} }]);
    expect(results).toMatchObject([{ isError: false, content: [{ type: "text", text: "deployed" }] }]);
  });

  it("answers a call of a tool that policy removed with pi's not-found error", async () => {
    const { results } = await runPi(createSession(), [{ name: "secret", input: {} }]);
    expect(results).toMatchObject([{ isError: true, content: [{ type: "text", text: "Tool secret not found" }] }]);
  });

  it("passes the session's progress to pi's tool_execution_update events", async () => {
    const { events } = await runPi(createSession(), [{ name: "slow", input: {} }]);
    const updates = events.filter((event) => event.type === "tool_execution_update");
    expect(updates).toMatchObject([
      {
        toolCallId: "call_1",
        toolName: "slow",
        partialResult: { content: [{ type: "text", text: "halfway" }], details: { percent: 50 } },
      },
    ]);
  });

  it("keeps images for the model and turns a resource link into a text line", async () => {
    const { results } = await runPi(createSession(), [{ name: "slow", input: {} }]);
    expect(results[0]?.content).toEqual([
      { type: "text", text: "done" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "text", text: '[resource link: file:///report.csv "report.csv"]' },
    ]);
  });

  it("runs several calls of one turn, each answered under its own id", async () => {
    const { results } = await runPi(createSession(), [
      { name: "add", input: { a: 1, b: 1 } },
      { name: "remove", input: { path: "x" } },
      { name: "add", input: { a: 2, b: 2 } },
    ]);
    expect(results.map((result) => [result.toolCallId, result.isError, result.content[0]])).toEqual([
      ["call_1", false, { type: "text", text: "2" }],
      ["call_2", true, { type: "text", text: "Tool call blocked: removing files needs a ticket" }],
      ["call_3", false, { type: "text", text: "4" }],
    ]);
  });
});

describe("toPiTools' execute, called directly", () => {
  it.runIf(PI_1)("returns pi 1 the error result with isError: true", async () => {
    const [tool] = toPiTools(createSession()).filter((each) => each.name === "remove");
    expect(await tool?.execute("call_9", { path: "a" })).toEqual({
      content: [{ type: "text", text: "Tool call blocked: removing files needs a ticket" }],
      details: undefined,
      isError: true,
    });
  });

  it.runIf(!PI_1)(
    "throws pi 0.73 ToolCallFailedError with the session's error code and the whole error result",
    async () => {
      const [tool] = toPiTools(createSession()).filter((each) => each.name === "remove");
      const failure = await tool?.execute("call_9", { path: "a" }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ToolCallFailedError);
      expect(failure).toMatchObject({
        code: "blocked-by-hook",
        toolName: "remove",
        toolCallId: "call_9",
        message: "Tool call blocked: removing files needs a ticket",
        result: { isError: true },
      });
    },
  );

  it("passes pi's abort signal to the session, which ends the call as aborted", async () => {
    const waiting: AgentTool = defineTool({
      name: "wait",
      description: "Waits until aborted",
      inputSchema: { type: "object", properties: {} },
      execute: (_input, context) =>
        new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(new Error("stopped")))),
    });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [waiting] }) });
    const seen = ends(session);
    const [tool] = toPiTools(session);
    const controller = new AbortController();
    const pending = tool?.execute("call_1", {}, controller.signal).catch((error: unknown) => error);
    controller.abort();
    // pi 1 gets the error result, pi 0.73 the throw.
    expect(await pending).toMatchObject(PI_1 ? { isError: true } : { code: "aborted", toolCallId: "call_1" });
    expect(seen).toMatchObject([{ toolCallId: "call_1", errorCode: "aborted" }]);
  });

  it("uses the approver it was given instead of the session's", async () => {
    const [tool] = toPiTools(createSession(), { approver: () => ({ approve: true }) }).filter(
      (each) => each.name === "deploy",
    );
    expect(await tool?.execute("call_1", {})).toMatchObject({ content: [{ type: "text", text: "deployed" }] });
  });

  it("labels a tool with its title, and keeps the executionMode the model's tool declares", () => {
    const sequential = defineTool({
      name: "write_file",
      description: "Writes",
      inputSchema: { type: "object", properties: {} },
      executionMode: "sequential",
      execute: async () => "ok",
    });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [add, sequential] }) });
    const tools = toPiTools(session);
    expect(tools.map((tool) => [tool.name, tool.label, tool.executionMode])).toEqual([
      ["add", "Add numbers", undefined],
      ["write_file", "write_file", "sequential"],
    ]);
  });
});
