import { Agent, Runner, RunState, setTracingDisabled } from "@openai/agents-core";
import { describe, expect, it } from "vitest";
import { type AgentsTurn, functionResultsIn, scriptedAgentsModel } from "../../../test/support/agents-model.js";
import type { AgentSession, AgentSessionOptions } from "../../core/dispatch/session.js";
import { defineTool } from "../../core/register/define-tool.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { AgentTool } from "../../core/types.js";
import { createAgentSession } from "../../create-agent-session.js";
import { toOpenAIAgentsTools } from "./to-openai-agents-tools.js";

setTracingDisabled(true);
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** A real session over a few tools, with a policy that denies `secret`; `runs` counts each executor's runs. */
function fixture(options: Omit<AgentSessionOptions, "registry"> = {}) {
  const runs: Record<string, number> = {};
  const count = (name: string) => {
    runs[name] = (runs[name] ?? 0) + 1;
  };
  const tools: AgentTool[] = [
    defineTool({
      name: "add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      execute: async ({ a, b }) => {
        count("add");
        return String(a + b);
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
        count("shell");
        return `ran ${String(command)}`;
      },
    }),
    defineTool({
      name: "delete-file",
      description: "Deletes a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      execute: async () => {
        count("delete-file");
        return "deleted";
      },
    }),
    defineTool({ name: "secret", description: "Never shown", inputSchema: { type: "object" }, execute: () => "x" }),
  ];
  const session = createAgentSession({
    registry: createToolRegistry({ custom: tools, policy: [{ label: "project", deny: ["secret"] }] }),
    beforeToolCall: [
      ({ toolName }) => (toolName === "delete-file" ? { block: true, reason: "files stay" } : undefined),
    ],
    ...options,
  });
  return { session, runs };
}

function agentOver(session: AgentSession, turns: AgentsTurn[], approvals?: "session") {
  const { model, requests } = scriptedAgentsModel(turns);
  const agent = new Agent({
    name: "test",
    instructions: "Use the tools.",
    model,
    tools: toOpenAIAgentsTools(session, approvals === undefined ? {} : { approvals }),
  });
  return { agent, requests, runner: new Runner({ tracingDisabled: true }) };
}

describe("toOpenAIAgentsTools", () => {
  it("offers the session's visible tools only, as non-strict function tools with toolwire's JSON Schema", async () => {
    const { session } = fixture();
    const { agent, requests, runner } = agentOver(session, [{ text: "hi" }]);
    await runner.run(agent, "go");
    const sent = requests[0]?.tools ?? [];
    expect(sent.map((entry) => entry.name)).toEqual(["add", "delete_file", "screenshot", "shell"]);
    expect(sent[0]).toMatchObject({
      type: "function",
      name: "add",
      description: "Adds two numbers",
      strict: false,
      parameters: session.activeTools.get("add")?.descriptor.inputSchema,
    });
  });

  it("runs a call through dispatch and shows the model the result on its next turn", async () => {
    const { session, runs } = fixture();
    const ends: string[] = [];
    session.on("tool_execution_end", (event) => ends.push(event.toolCallId));
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "call_1", name: "add", input: { a: 2, b: 3 } }] },
      { text: "5" },
    ]);
    const result = await runner.run(agent, "add");
    expect(result.finalOutput).toBe("5");
    expect(functionResultsIn(requests[1])).toEqual([
      expect.objectContaining({ type: "function_call_result", callId: "call_1", output: { type: "text", text: "5" } }),
    ]);
    expect(runs.add).toBe(1);
    expect(ends).toEqual(["call_1"]);
  });

  it("shows an image result as structured output with the image", async () => {
    const { session } = fixture();
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "screenshot", input: {} }] },
      { text: "done" },
    ]);
    await runner.run(agent, "look");
    expect(functionResultsIn(requests[1])[0]).toMatchObject({
      output: [
        { type: "input_text", text: "the screen:" },
        { type: "input_image", image: `data:image/png;base64,${PIXEL}` },
      ],
    });
  });

  it("an input that breaks the schema reaches the model as toolwire's error text, and the tool does not run", async () => {
    const { session, runs } = fixture();
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "add", input: { a: "2", b: 3 } }] },
      { text: "oops" },
    ]);
    await runner.run(agent, "add");
    const output = functionResultsIn(requests[1])[0]?.output;
    expect(output).toMatchObject({ type: "text", text: expect.stringMatching(/^Error: Invalid input for tool add/) });
    expect(output).toMatchObject({ text: expect.stringContaining('- input.a: must be number, got string "2"') });
    expect(runs.add).toBeUndefined();
  });

  it("malformed JSON arguments are answered by the Runner itself and never reach toolwire", async () => {
    const { session } = fixture();
    const starts: string[] = [];
    session.on("tool_execution_start", (event) => starts.push(event.toolName));
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "add", input: '{"a": 2,' }] },
      { text: "oops" },
    ]);
    await runner.run(agent, "add");
    expect(starts).toEqual([]);
    expect(functionResultsIn(requests[1])[0]?.output).toMatchObject({ type: "text" });
  });

  it("a call a before hook blocks reaches the model as 'Error: Tool call blocked: <reason>'", async () => {
    const { session, runs } = fixture();
    const codes: (string | undefined)[] = [];
    session.on("tool_execution_end", (event) => codes.push(event.errorCode));
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "delete_file", input: { path: "a.txt" } }] },
      { text: "ok" },
    ]);
    await runner.run(agent, "rm");
    expect(functionResultsIn(requests[1])[0]?.output).toEqual({
      type: "text",
      text: "Error: Tool call blocked: files stay",
    });
    expect(runs["delete-file"]).toBeUndefined();
    expect(codes).toEqual(["blocked-by-hook"]);
  });

  it("a call the session's approvals require interrupts the run, and runs once the state approves it", async () => {
    const { session, runs } = fixture({ approvals: { require: ["shell"] } });
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "listed" },
    ]);
    const first = await runner.run(agent, "list");
    expect(first.interruptions).toHaveLength(1);
    const item = first.interruptions[0];
    expect(item?.rawItem).toMatchObject({ type: "function_call", callId: "c1", name: "shell" });
    expect(runs.shell).toBeUndefined();
    if (item === undefined) throw new Error("no interruption");
    first.state.approve(item);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("listed");
    expect(runs.shell).toBe(1);
    expect(functionResultsIn(requests[1])[0]?.output).toEqual({ type: "text", text: "ran ls" });
  });

  it("an interrupted run resumes from its serialized state, in a new session over the same tools", async () => {
    const first = fixture({ approvals: { require: ["shell"] } });
    const turns: AgentsTurn[] = [
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "listed" },
    ];
    const before = agentOver(first.session, turns);
    const paused = await before.runner.run(before.agent, "list");
    const saved = paused.state.toString();
    const later = fixture({ approvals: { require: ["shell"] } });
    const after = agentOver(later.session, turns.slice(1));
    const state = await RunState.fromString(after.agent, saved);
    const item = state.getInterruptions()[0];
    if (item === undefined) throw new Error("no interruption");
    state.approve(item);
    const result = await after.runner.run(after.agent, state);
    expect(result.finalOutput).toBe("listed");
    expect(first.runs.shell).toBeUndefined();
    expect(later.runs.shell).toBe(1);
  });

  it("a call whose approval the state rejected never reaches toolwire", async () => {
    const { session, runs } = fixture({ approvals: { require: ["shell"] } });
    const starts: string[] = [];
    session.on("tool_execution_start", (event) => starts.push(event.toolName));
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "shell", input: { command: "rm -rf /" } }] },
      { text: "fine" },
    ]);
    const first = await runner.run(agent, "go");
    const item = first.interruptions[0];
    if (item === undefined) throw new Error("no interruption");
    first.state.reject(item, { message: "not that" });
    await runner.run(agent, first.state);
    expect(runs.shell).toBeUndefined();
    expect(starts).toEqual([]);
    expect(functionResultsIn(requests[1])[0]?.output).toEqual({ type: "text", text: "not that" });
  });

  it("with approvals 'session' and no approver, a call that needs approval fails approval-required", async () => {
    const { session, runs } = fixture({ approvals: { require: ["shell"] } });
    const { agent, requests, runner } = agentOver(
      session,
      [{ calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] }, { text: "ok" }],
      "session",
    );
    const result = await runner.run(agent, "go");
    expect(result.interruptions).toEqual([]);
    expect(runs.shell).toBeUndefined();
    expect(functionResultsIn(requests[1])[0]?.output).toEqual({
      type: "text",
      text: "Error: Tool call shell needs a person's approval, and nobody here can give it. It was not run.",
    });
  });

  it("an approval the state gave does not cover an input a before hook changed", async () => {
    const { session, runs } = fixture({
      approvals: { require: ["shell"] },
      beforeToolCall: [
        ({ toolName, input }) => (toolName === "shell" ? { input: { ...input, command: "rm" } } : undefined),
      ],
    });
    const { agent, requests, runner } = agentOver(session, [
      { calls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "ok" },
    ]);
    const first = await runner.run(agent, "go");
    const item = first.interruptions[0];
    if (item === undefined) throw new Error("no interruption");
    first.state.approve(item);
    await runner.run(agent, first.state);
    expect(runs.shell).toBeUndefined();
    expect(functionResultsIn(requests[1])[0]?.output).toEqual({
      type: "text",
      text: "Error: Tool call declined: a beforeToolCall hook changed the input after a person approved it",
    });
  });

  it("passes the run's abort signal to the call", async () => {
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
    const codes: (string | undefined)[] = [];
    session.on("tool_execution_end", (event) => codes.push(event.errorCode));
    const { agent, runner } = agentOver(session, [{ calls: [{ id: "c1", name: "slow", input: {} }] }, { text: "ok" }]);
    await runner.run(agent, "go", { signal: controller.signal }).catch(() => undefined);
    expect(codes).toEqual(["aborted"]);
  });

  it("refuses two active tools the Agents SDK would give one name", () => {
    const tool = (name: string) =>
      defineTool({ name, description: name, inputSchema: { type: "object" }, execute: () => name });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [tool("a-b"), tool("a_b")] }) });
    expect(() => toOpenAIAgentsTools(session)).toThrow(
      expect.objectContaining({ code: "invalid-tool-definition", toolName: "a_b" }),
    );
  });
});
