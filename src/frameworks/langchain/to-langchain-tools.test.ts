// toLangChainTools under LangChain's real createAgent (and LangGraph's ToolNode): a scripted chat model calls toolwire
// tools, and the session's policy, validation, hooks, approvals and errors decide what the model reads back.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { StructuredTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { add, blockRemove, deploy, fail, remove, secret } from "../../../test/support/framework-tools.js";
import { defineTool } from "../../core/register/define-tool.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { ToolExecutionEndEvent } from "../../core/types.js";
import { createAgentSession } from "../../create-agent-session.js";
import { ToolCallFailedError } from "../tool-call-failed-error.js";
import { toLangChainTools } from "./to-langchain-tools.js";

const chart = defineTool({
  name: "chart",
  description: "Reports progress, then draws a chart",
  inputSchema: { type: "object", properties: {} },
  execute: async (_input, context) => {
    context.onUpdate({ content: [{ type: "text", text: "halfway" }], details: { percent: 50 } });
    return {
      content: [
        { type: "text", text: "here it is" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
    };
  },
});

function createSession() {
  const registry = createToolRegistry({
    custom: [add, chart, deploy, fail, remove, secret],
    policy: [{ label: "team", deny: ["secret"] }],
  });
  return createAgentSession({
    registry,
    beforeToolCall: [blockRemove],
    approvals: { require: ["deploy"], approver: () => ({ approve: false, reason: "not on a Friday" }) },
  });
}

type Call = { name: string; args: Record<string, unknown> };

/** One run of createAgent over the session's tools; returns the tool messages the model read in its second turn. */
async function runAgent(session: ReturnType<typeof createSession>, calls: Call[]) {
  const model = fakeModel()
    .respondWithTools(calls.map((call, index) => ({ ...call, id: `call_${index + 1}` })))
    .respond(new AIMessage("All done."));
  const agent = createAgent({ model, tools: toLangChainTools(session) });
  const state = await agent.invoke({ messages: [new HumanMessage("go")] });
  const read = model.calls[1]?.messages ?? [];
  return { toolMessages: read.filter(ToolMessage.isInstance), messages: state.messages as BaseMessage[] };
}

function endsOf(session: ReturnType<typeof createSession>) {
  const seen: ToolExecutionEndEvent[] = [];
  session.on("tool_execution_end", (event) => seen.push(event));
  return seen;
}

describe("toLangChainTools under createAgent", () => {
  it("offers the session's active tools with their JSON Schemas, and none that policy removed", () => {
    const tools = toLangChainTools(createSession());
    expect(tools.map((tool) => tool.name)).toEqual(["add", "chart", "deploy", "fail", "remove"]);
    expect(convertToOpenAITool(tools[0] as never)).toEqual({
      type: "function",
      function: { name: "add", description: "Adds two numbers", parameters: add.descriptor.inputSchema },
    });
  });

  it("gives the model a valid call's result, with details as the ToolMessage's artifact", async () => {
    const session = createSession();
    const seen = endsOf(session);
    const { toolMessages } = await runAgent(session, [{ name: "add", args: { a: 2, b: 3 } }]);
    expect(toolMessages).toHaveLength(1);
    expect(toolMessages[0]).toMatchObject({
      tool_call_id: "call_1",
      name: "add",
      status: "success",
      content: "5",
      artifact: { sum: 5 },
    });
    expect(seen).toMatchObject([{ toolCallId: "call_1", toolName: "add", isError: false }]);
  });

  it("gives the model the session's validation error for an invalid input, as an error ToolMessage", async () => {
    const session = createSession();
    const seen = endsOf(session);
    const { toolMessages } = await runAgent(session, [{ name: "add", args: { a: "two", b: 3 } }]);
    expect(toolMessages[0]).toMatchObject({ tool_call_id: "call_1", status: "error" });
    const text = String(toolMessages[0]?.content);
    expect(text).toContain("Invalid input for tool add");
    expect(text).toContain("input.a");
    expect(text).not.toContain("did not match expected schema");
    expect(seen).toMatchObject([{ toolCallId: "call_1", errorCode: "invalid-input" }]);
  });

  it("gives the model the block reason of a before hook, and the tool does not run", async () => {
    const session = createSession();
    const seen = endsOf(session);
    const { toolMessages } = await runAgent(session, [{ name: "remove", args: { path: "a.txt" } }]);
    expect(toolMessages[0]).toMatchObject({
      status: "error",
      content: "Tool call blocked: removing files needs a ticket",
    });
    expect(seen).toMatchObject([{ errorCode: "blocked-by-hook" }]);
  });

  it("gives the model the executor's error message as an error ToolMessage", async () => {
    const { toolMessages } = await runAgent(createSession(), [{ name: "fail", args: {} }]);
    expect(toolMessages[0]).toMatchObject({ status: "error", content: "Tool fail failed: the disk is full" });
  });

  it("gives the model the decline of the session's approver", async () => {
    const session = createSession();
    const seen = endsOf(session);
    const { toolMessages } = await runAgent(session, [{ name: "deploy", args: {} }]);
    expect(toolMessages[0]).toMatchObject({ status: "error", content: "Tool call declined: not on a Friday" });
    expect(seen).toMatchObject([{ errorCode: "approval-declined" }]);
  });

  it("answers a call of a tool that policy removed with LangChain's unknown-tool error", async () => {
    const { toolMessages } = await runAgent(createSession(), [{ name: "secret", args: {} }]);
    expect(toolMessages[0]).toMatchObject({ status: "error" });
    expect(String(toolMessages[0]?.content)).toContain("secret is not a valid tool");
  });

  it("gives the model an image as a LangChain image content block", async () => {
    const { toolMessages } = await runAgent(createSession(), [{ name: "chart", args: {} }]);
    expect(toolMessages[0]?.content).toEqual([
      { type: "text", text: "here it is" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ]);
  });

  it("answers every call of a turn under its own id", async () => {
    const { toolMessages } = await runAgent(createSession(), [
      { name: "add", args: { a: 1, b: 1 } },
      { name: "remove", args: { path: "x" } },
      { name: "add", args: { a: 2, b: 2 } },
    ]);
    expect(toolMessages.map((message) => [message.tool_call_id, message.status, message.content])).toEqual([
      ["call_1", "success", "2"],
      ["call_2", "error", "Tool call blocked: removing files needs a ticket"],
      ["call_3", "success", "4"],
    ]);
  });

  it("streams the session's progress to LangGraph's tools stream mode under the call's id", async () => {
    const session = createSession();
    const model = fakeModel()
      .respondWithTools([{ name: "chart", args: {}, id: "call_1" }])
      .respond(new AIMessage("All done."));
    const agent = createAgent({ model, tools: toLangChainTools(session) });
    const events: unknown[] = [];
    for await (const chunk of await agent.stream({ messages: [new HumanMessage("go")] }, { streamMode: "tools" })) {
      events.push(chunk);
    }
    expect(events).toContainEqual(
      expect.objectContaining({
        event: "on_tool_event",
        toolCallId: "call_1",
        name: "chart",
        data: { content: [{ type: "text", text: "halfway" }], details: { percent: 50 } },
      }),
    );
  });
});

describe("toLangChainTools under LangGraph's ToolNode", () => {
  it("answers a valid call and an invalid one, each as ToolNode hands them to the model", async () => {
    const node = new ToolNode(toLangChainTools(createSession()));
    const turn = new AIMessage({
      content: "",
      tool_calls: [
        { id: "call_1", name: "add", args: { a: 20, b: 22 }, type: "tool_call" },
        { id: "call_2", name: "add", args: { a: 1 }, type: "tool_call" },
      ],
    });
    const { messages } = (await node.invoke({ messages: [turn] })) as { messages: ToolMessage[] };
    expect(messages.map((message) => [message.tool_call_id, message.status])).toEqual([
      ["call_1", "success"],
      ["call_2", "error"],
    ]);
    expect(messages[0]?.content).toBe("42");
    expect(String(messages[1]?.content)).toContain("Invalid input for tool add");
  });
});

describe("a session tool invoked directly", () => {
  it("answers bare arguments with the content alone", async () => {
    const [tool] = toLangChainTools(createSession());
    expect(await tool?.invoke({ a: 1, b: 2 })).toBe("3");
  });

  it("throws ToolCallFailedError for an error result when invoked with bare arguments", async () => {
    const tool = toLangChainTools(createSession()).find((each) => each.name === "remove");
    const failure = await tool?.invoke({ path: "a" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolCallFailedError);
    expect(failure).toMatchObject({
      code: "blocked-by-hook",
      toolName: "remove",
      message: "Tool call blocked: removing files needs a ticket",
    });
  });

  it("rejects with the abort's reason when the RunnableConfig's signal aborts the call", async () => {
    const waiting = defineTool({
      name: "wait",
      description: "Waits until aborted",
      inputSchema: { type: "object", properties: {} },
      execute: (_input, context) =>
        new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(new Error("stopped")))),
    });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [waiting] }) });
    const seen: ToolExecutionEndEvent[] = [];
    session.on("tool_execution_end", (event) => seen.push(event));
    const [tool] = toLangChainTools(session);
    const controller = new AbortController();
    const pending = tool
      ?.invoke({ id: "call_1", name: "wait", args: {}, type: "tool_call" }, { signal: controller.signal })
      .catch((error: unknown) => error);
    controller.abort(new Error("the user pressed stop"));
    expect(await pending).toMatchObject({ message: "the user pressed stop" });
    expect(seen).toMatchObject([{ toolCallId: "call_1", errorCode: "aborted" }]);
  });

  it("uses the approver it was given instead of the session's", async () => {
    const tool = toLangChainTools(createSession(), { approver: () => ({ approve: true }) }).find(
      (each) => each.name === "deploy",
    );
    const message = await tool?.invoke({ id: "call_1", name: "deploy", args: {}, type: "tool_call" });
    expect(message).toMatchObject({ status: "success", content: "deployed", tool_call_id: "call_1" });
  });

  it("reports the call to the run's callbacks with its tool call id", async () => {
    const [tool] = toLangChainTools(createSession());
    const starts: unknown[] = [];
    const ends: unknown[] = [];
    await tool?.invoke(
      { id: "call_5", name: "add", args: { a: 1, b: 1 }, type: "tool_call" },
      {
        callbacks: [
          {
            handleToolStart: (_tool, input, _runId, _parent, _tags, _metadata, runName, toolCallId) => {
              starts.push({ input, runName, toolCallId });
            },
            handleToolEnd: (output) => {
              ends.push(output);
            },
          },
        ],
      },
    );
    expect(starts).toEqual([{ input: '{"a":1,"b":1}', runName: "add", toolCallId: "call_5" }]);
    expect(ends).toMatchObject([{ tool_call_id: "call_5", content: "2" }]);
  });

  it("answers the same through LangChain's own call, were invoke to bypass the tool's", async () => {
    const tools = toLangChainTools(createSession());
    const call = (name: string, args: object) =>
      StructuredTool.prototype.call.call(tools.find((each) => each.name === name) as StructuredTool, args, {
        toolCall: { id: "call_1", name, args, type: "tool_call" },
      });
    expect(await call("add", { a: 1, b: 2 })).toMatchObject({
      status: "success",
      content: "3",
      artifact: { sum: 3 },
      tool_call_id: "call_1",
    });
    expect(await call("remove", { path: "a" })).toMatchObject({
      status: "error",
      content: "Tool call blocked: removing files needs a ticket",
      tool_call_id: "call_1",
    });
  });
});
