import * as ai from "ai";
import { generateText, type ModelMessage, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedAiSdkModel, toolResultsIn } from "../../../test/support/ai-sdk-model.js";
import type { AgentSessionOptions } from "../../core/dispatch/session.js";
import { defineTool } from "../../core/register/define-tool.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { AgentTool } from "../../core/types.js";
import { createAgentSession } from "../../create-agent-session.js";
import { ToolCallFailedError } from "../tool-call-failed-error.js";
import { toAiSdkTools } from "./to-ai-sdk-tools.js";

const AI_SDK_7 = "uploadFile" in ai;
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** A real session over a few tools, with a policy that denies `secret`; `runs` counts each executor's runs. */
function fixture(options: Omit<AgentSessionOptions, "registry"> = {}) {
  const runs: Record<string, number> = {};
  const counted = (name: string) => () => {
    runs[name] = (runs[name] ?? 0) + 1;
  };
  const tools: AgentTool[] = [
    defineTool({
      name: "add",
      title: "Add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      execute: async ({ a, b }) => {
        counted("add")();
        return { content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } };
      },
    }),
    defineTool({
      name: "screenshot",
      description: "Takes a screenshot",
      inputSchema: { type: "object" },
      execute: async () => ({
        content: [
          { type: "text", text: "the screen:" },
          { type: "image", data: PIXEL, mimeType: "image/png" },
        ],
      }),
    }),
    defineTool({
      name: "shell",
      description: "Runs a command",
      inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
      execute: async ({ command }) => {
        counted("shell")();
        return `ran ${String(command)}`;
      },
    }),
    defineTool({
      name: "delete_file",
      description: "Deletes a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      execute: async () => {
        counted("delete_file")();
        return "deleted";
      },
    }),
    defineTool({ name: "secret", description: "Never shown", inputSchema: { type: "object" }, execute: () => "x" }),
  ];
  const session = createAgentSession({
    registry: createToolRegistry({ custom: tools, policy: [{ label: "project", deny: ["secret"] }] }),
    beforeToolCall: [
      ({ toolName }) => (toolName === "delete_file" ? { block: true, reason: "files stay" } : undefined),
    ],
    ...options,
  });
  return { session, runs };
}

describe("toAiSdkTools", () => {
  it("offers the session's visible tools only, with description, title and the JSON Schema", async () => {
    const { session } = fixture();
    const tools = toAiSdkTools(session);
    expect(Object.keys(tools)).toEqual(["add", "delete_file", "screenshot", "shell"]);
    const { model } = scriptedAiSdkModel([{ text: "hi" }]);
    await generateText({ model, prompt: "go", tools });
    const sent = model.doGenerateCalls[0]?.tools ?? [];
    expect(sent.map((entry) => entry.name)).toEqual(["add", "delete_file", "screenshot", "shell"]);
    expect(sent[0]).toMatchObject({
      type: "function",
      name: "add",
      description: "Adds two numbers",
      inputSchema: session.activeTools.get("add")?.descriptor.inputSchema,
    });
    expect(tools.add?.title).toBe("Add");
  });

  it("runs a call through dispatch and shows the model the result's text on its next turn", async () => {
    const { session, runs } = fixture();
    const ends: string[] = [];
    session.on("tool_execution_end", (event) => ends.push(event.toolCallId));
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "call_1", name: "add", input: { a: 2, b: 3 } }] },
      { text: "5" },
    ]);
    const result = await generateText({ model, prompt: "add", tools: toAiSdkTools(session), stopWhen: () => false });
    expect(toolResultsIn(prompts[1])).toEqual([
      { type: "tool-result", toolCallId: "call_1", toolName: "add", output: { type: "text", value: "5" } },
    ]);
    expect(runs.add).toBe(1);
    expect(ends).toEqual(["call_1"]);
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      content: [{ type: "text", text: "5" }],
      details: { sum: 5 },
    });
  });

  it("shows an image result as content parts with the image data", async () => {
    const { session } = fixture();
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "screenshot", input: {} }] },
      { text: "done" },
    ]);
    const warnings: unknown[] = [];
    const logged = (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
    Object.assign(globalThis, { AI_SDK_LOG_WARNINGS: (options: unknown) => warnings.push(options) });
    try {
      await generateText({ model, prompt: "look", tools: toAiSdkTools(session), stopWhen: () => false });
    } finally {
      Object.assign(globalThis, { AI_SDK_LOG_WARNINGS: logged });
    }
    // The AI SDK 7 (its model interface v4) takes an image as a file part, and warns that image-data is deprecated.
    const image = AI_SDK_7
      ? { type: "file", data: { type: "data", data: PIXEL }, mediaType: "image/png" }
      : { type: "image-data", data: PIXEL, mediaType: "image/png" };
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({
      type: "content",
      value: [{ type: "text", text: "the screen:" }, expect.objectContaining(image)],
    });
    expect(JSON.stringify(warnings)).not.toContain("deprecated");
  });

  it("an input that breaks the schema reaches the model as toolwire's error text, and the tool does not run", async () => {
    const { session, runs } = fixture();
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "add", input: { a: "2", b: 3 } }] },
      { text: "oops" },
    ]);
    const result = await generateText({ model, prompt: "add", tools: toAiSdkTools(session), stopWhen: () => false });
    const output = toolResultsIn(prompts[1])[0]?.output;
    expect(output?.type).toBe("error-text");
    expect(output).toHaveProperty("value", expect.stringContaining('- input.a: must be number, got string "2"'));
    // ai 7 shows the model String(error): ToolCallFailedError.toString leaves out the class name.
    expect((output as { value?: unknown } | undefined)?.value).not.toMatch(/^ToolCallFailedError/);
    expect(runs.add).toBeUndefined();
    const part = result.steps[0]?.content.find((entry) => entry.type === "tool-error");
    expect(part?.error).toBeInstanceOf(ToolCallFailedError);
    expect(part?.error).toMatchObject({ code: "invalid-input", toolName: "add", toolCallId: "c1" });
  });

  it("malformed JSON input is refused by the AI SDK itself and never reaches toolwire", async () => {
    const { session } = fixture();
    const starts: string[] = [];
    session.on("tool_execution_start", (event) => starts.push(event.toolName));
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "add", input: '{"a": 2,' }] },
      { text: "oops" },
    ]);
    await generateText({ model, prompt: "add", tools: toAiSdkTools(session), stopWhen: () => false });
    expect(starts).toEqual([]);
    expect(toolResultsIn(prompts[1])[0]?.output).toMatchObject({ type: "error-text" });
  });

  it("a call a before hook blocks reaches the model as 'Tool call blocked: <reason>'", async () => {
    const { session, runs } = fixture();
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "delete_file", input: { path: "a.txt" } }] },
      { text: "ok" },
    ]);
    const result = await generateText({ model, prompt: "rm", tools: toAiSdkTools(session), stopWhen: () => false });
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({
      type: "error-text",
      value: "Tool call blocked: files stay",
    });
    expect(runs.delete_file).toBeUndefined();
    const part = result.steps[0]?.content.find((entry) => entry.type === "tool-error");
    expect(part?.error).toMatchObject({ code: "blocked-by-hook" });
  });

  it("a tool the policy removed is not offered, so the AI SDK refuses the model's call to it", async () => {
    const { session } = fixture();
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "secret", input: {} }] },
      { text: "ok" },
    ]);
    await generateText({ model, prompt: "x", tools: toAiSdkTools(session), stopWhen: () => false });
    const output = toolResultsIn(prompts[1])[0]?.output;
    expect(output?.type).toBe("error-text");
    expect(output).toHaveProperty("value", expect.stringContaining("unavailable tool 'secret'"));
  });

  it("a call the session's approvals require stops at the AI SDK's approval request and runs once approved", async () => {
    const { session, runs } = fixture({ approvals: { require: ["shell"] } });
    const tools = toAiSdkTools(session);
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "listed" },
    ]);
    const first = await generateText({ model, prompt: "list", tools, stopWhen: () => false });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    expect(request?.toolCall).toMatchObject({ toolCallId: "c1", toolName: "shell", input: { command: "ls" } });
    expect(runs.shell).toBeUndefined();
    const messages: ModelMessage[] = [
      { role: "user", content: "list" },
      ...first.response.messages,
      {
        role: "tool",
        content: [{ type: "tool-approval-response", approvalId: request?.approvalId ?? "", approved: true }],
      },
    ];
    await generateText({ model, messages, tools, stopWhen: () => false });
    expect(runs.shell).toBe(1);
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({ type: "text", value: "ran ls" });
  });

  it("a call whose approval the AI SDK's user denied never reaches toolwire", async () => {
    const { session, runs } = fixture({ approvals: { require: ["shell"] } });
    const starts: string[] = [];
    session.on("tool_execution_start", (event) => starts.push(event.toolName));
    const tools = toAiSdkTools(session);
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "shell", input: { command: "rm -rf /" } }] },
      { text: "fine" },
    ]);
    const first = await generateText({ model, prompt: "go", tools, stopWhen: () => false });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    await generateText({
      model,
      tools,
      stopWhen: () => false,
      messages: [
        { role: "user", content: "go" },
        ...first.response.messages,
        {
          role: "tool",
          content: [
            { type: "tool-approval-response", approvalId: request?.approvalId ?? "", approved: false, reason: "no" },
          ],
        },
      ],
    });
    expect(runs.shell).toBeUndefined();
    expect(starts).toEqual([]);
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({ type: "execution-denied", reason: "no" });
  });

  it("an approval the AI SDK gave does not cover an input a before hook changed", async () => {
    const { session, runs } = fixture({
      approvals: { require: ["shell"] },
      beforeToolCall: [
        ({ toolName, input }) => (toolName === "shell" ? { input: { ...input, command: "rm" } } : undefined),
      ],
    });
    const tools = toAiSdkTools(session);
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "ok" },
    ]);
    const first = await generateText({ model, prompt: "go", tools, stopWhen: () => false });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    await generateText({
      model,
      tools,
      stopWhen: () => false,
      messages: [
        { role: "user", content: "go" },
        ...first.response.messages,
        {
          role: "tool",
          content: [{ type: "tool-approval-response", approvalId: request?.approvalId ?? "", approved: true }],
        },
      ],
    });
    expect(runs.shell).toBeUndefined();
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({
      type: "error-text",
      value: "Tool call declined: a beforeToolCall hook changed the input after a person approved it",
    });
  });

  it("with approvals 'session' and no approver, a call that needs approval fails approval-required", async () => {
    const { session, runs } = fixture({ approvals: { require: ["shell"] } });
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "ok" },
    ]);
    const result = await generateText({
      model,
      prompt: "go",
      tools: toAiSdkTools(session, { approvals: "session" }),
      stopWhen: () => false,
    });
    expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(false);
    expect(runs.shell).toBeUndefined();
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({
      type: "error-text",
      value: "Tool call shell needs a person's approval, and nobody here can give it. It was not run.",
    });
  });

  it("with approvals 'session', the session's approver decides inside the call", async () => {
    const asked: string[] = [];
    const { session, runs } = fixture({
      approvals: {
        require: ["shell"],
        approver: (request) => {
          asked.push(request.toolCallId);
          return { approve: true };
        },
      },
    });
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "ok" },
    ]);
    await generateText({
      model,
      prompt: "go",
      tools: toAiSdkTools(session, { approvals: "session" }),
      stopWhen: () => false,
    });
    expect(asked).toEqual(["c1"]);
    expect(runs.shell).toBe(1);
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({ type: "text", value: "ran ls" });
  });

  it("passes the AI SDK's abort signal to the call", async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: "slow",
      description: "Waits until aborted",
      inputSchema: { type: "object" },
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("stopped")));
          controller.abort();
        }),
    });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [slow] }) });
    const { model } = scriptedAiSdkModel([{ calls: [{ id: "c1", name: "slow", input: {} }] }, { text: "ok" }]);
    const codes: (string | undefined)[] = [];
    session.on("tool_execution_end", (event) => codes.push(event.errorCode));
    await generateText({
      model,
      prompt: "go",
      tools: toAiSdkTools(session),
      abortSignal: controller.signal,
      stopWhen: () => false,
    }).catch(() => undefined);
    expect(codes).toEqual(["aborted"]);
  });

  it("works under streamText: the model's next turn gets the result", async () => {
    const { session } = fixture();
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "s1", name: "add", input: { a: 1, b: 1 } }] },
      { text: "2" },
    ]);
    const result = streamText({ model, prompt: "add", tools: toAiSdkTools(session), stopWhen: () => false });
    expect(await result.text).toBe("2");
    expect(toolResultsIn(prompts[1])).toEqual([
      { type: "tool-result", toolCallId: "s1", toolName: "add", output: { type: "text", value: "2" } },
    ]);
  });

  it("rejects an unknown approvals option", () => {
    const { session } = fixture();
    expect(() => toAiSdkTools(session, { approvals: "model" as "session" })).toThrow(TypeError);
  });
});
