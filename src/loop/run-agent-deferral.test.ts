// The loop with deferred tools (docs/deferred-tools.md): what each request carries, before and after tool_search found
// a tool.
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { AgentTool } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import type { ModelClient, ModelRequest, ModelTurn } from "../providers/clients/types.js";
import { resumeAgent } from "./resume-agent.js";
import { runAgent } from "./run-agent.js";

const tool = (name: string, description: string): AgentTool =>
  defineTool({ name, description, inputSchema: { type: "object" }, execute: () => `${name} ran` });

const TOOLS = [
  tool("read", "Read a file"),
  tool("stocks", "Get a stock quote by ticker symbol"),
  tool("weather", "Get the weather forecast"),
];

/** A model answering with the given turns, recording the names of the tools each request offered. */
function recordingModel(turns: readonly Partial<ModelTurn>[]): ModelClient & { offered: string[][] } {
  const offered: string[][] = [];
  let next = 0;
  return {
    name: "recording",
    offered,
    async complete(request: ModelRequest) {
      offered.push(request.tools.map((entry) => ("descriptor" in entry ? entry.descriptor.name : entry.name)));
      const turn = turns[next++] ?? {};
      const toolCalls = turn.toolCalls ?? [];
      return { text: "", stopReason: toolCalls.length > 0 ? "tool_use" : "end", ...turn, toolCalls };
    },
  };
}

const SEARCH = { id: "s1", name: TOOL_SEARCH_NAME, input: { query: "stock quote" } };
const STOCKS = { id: "c1", name: "stocks", input: {} };

describe("runAgent with deferred tools", () => {
  it("sends tool_search instead of the deferred tools, then appends the tool a search found", async () => {
    const session = createAgentSession({
      registry: createToolRegistry({ custom: TOOLS, defer: ["stocks", "weather"] }),
    });
    const model = recordingModel([{ toolCalls: [SEARCH] }, { toolCalls: [STOCKS] }, { text: "done" }]);
    const { done } = await drain(runAgent({ session, model, prompt: "price of ACME?" }));
    expect(done.reason).toBe("completed");
    expect(model.offered).toEqual([
      ["read", TOOL_SEARCH_NAME],
      ["read", TOOL_SEARCH_NAME, "stocks"],
      ["read", TOOL_SEARCH_NAME, "stocks"],
    ]);
  });

  it("sends again the tools found earlier in the messages it goes on from", async () => {
    const first = createAgentSession({ registry: createToolRegistry({ custom: TOOLS, defer: ["stocks", "weather"] }) });
    const { done } = await drain(
      runAgent({ session: first, model: recordingModel([{ toolCalls: [SEARCH] }, { text: "ok" }]), prompt: "a" }),
    );
    const later = createAgentSession({ registry: createToolRegistry({ custom: TOOLS, defer: ["stocks", "weather"] }) });
    const model = recordingModel([{ text: "ok" }]);
    await drain(runAgent({ session: later, model, prompt: "b", messages: done.transcript }));
    expect(model.offered).toEqual([["read", TOOL_SEARCH_NAME, "stocks"]]);
  });

  it("resumed in a new session, sends the tools the paused run had found", async () => {
    const make = () =>
      createAgentSession({
        registry: createToolRegistry({ custom: TOOLS, defer: ["stocks", "weather"] }),
        approvals: { require: ["stocks"], secret: "a shared secret for this test, 32 bytes or more" },
      });
    const { events } = await drain(
      runAgent({
        session: make(),
        model: recordingModel([{ toolCalls: [SEARCH] }, { toolCalls: [STOCKS] }]),
        prompt: "a",
      }),
    );
    const paused = events.find((event) => event.type === "done");
    if (paused?.type !== "done" || paused.state === undefined) throw new Error("the run did not pause");
    const approvalId = paused.state.pending[0]?.approvalId as string;
    const model = recordingModel([{ text: "done" }]);
    const resumed = await drain(
      resumeAgent({ session: make(), model, state: paused.state, decisions: { [approvalId]: { approve: true } } }),
    );
    expect(resumed.done.reason).toBe("completed");
    expect(model.offered).toEqual([["read", TOOL_SEARCH_NAME, "stocks"]]);
  });
});
