// A tool bridged from a real MCP server (the SDK's in-memory transport) called by the AI SDK's and the Agents SDK's
// loops.
import { Agent, Runner, setTracingDisabled } from "@openai/agents-core";
import { generateText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { functionResultsIn, scriptedAgentsModel } from "../../test/support/agents-model.js";
import { scriptedAiSdkModel, toolResultsIn } from "../../test/support/ai-sdk-model.js";
import { memoryMcpServer } from "../../test/support/memory-mcp-server.js";
import { createToolRegistry } from "../core/register/registry.js";
import { createAgentSession } from "../create-agent-session.js";
import { connectMcpEndpoint } from "../mcp/client/connect-mcp-server.js";
import type { McpConnection } from "../mcp/client/mcp-connection.js";
import { toAiSdkTools } from "./ai-sdk/to-ai-sdk-tools.js";
import { toOpenAIAgentsTools } from "./openai-agents/to-openai-agents-tools.js";

setTracingDisabled(true);
const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

/** A session whose tools come from an MCP server with `echo` and `wipe`, where policy denies `wipe`. */
async function mcpSession() {
  const calls: string[] = [];
  const server = memoryMcpServer({
    id: "mem",
    tools: ["echo", "wipe"],
    onCall: (name, input) => {
      calls.push(name);
      return { content: [{ type: "text", text: `echoed ${JSON.stringify(input)}` }] };
    },
  });
  const connection = await connectMcpEndpoint(server.endpoint);
  open.push(connection);
  const registry = createToolRegistry({ extensions: [connection], policy: [{ label: "project", deny: ["*wipe"] }] });
  return { session: createAgentSession({ registry }), calls };
}

describe("MCP tools under the frameworks' loops", () => {
  it("the AI SDK's generateText calls a bridged MCP tool, and the policy keeps the denied one out", async () => {
    const { session, calls } = await mcpSession();
    const tools = toAiSdkTools(session);
    const [name] = Object.keys(tools);
    expect(Object.keys(tools)).toHaveLength(1);
    const { model, prompts } = scriptedAiSdkModel([
      { calls: [{ id: "c1", name: name ?? "", input: { text: "hi" } }] },
      { text: "done" },
    ]);
    await generateText({ model, prompt: "echo", tools, stopWhen: () => false });
    expect(calls).toEqual(["echo"]);
    expect(toolResultsIn(prompts[1])[0]?.output).toEqual({ type: "text", value: 'echoed {"text":"hi"}' });
  });

  it("the Agents SDK's Runner calls a bridged MCP tool", async () => {
    const { session, calls } = await mcpSession();
    const tools = toOpenAIAgentsTools(session);
    expect(tools).toHaveLength(1);
    const { model, requests } = scriptedAgentsModel([
      { calls: [{ id: "c1", name: tools[0]?.name ?? "", input: { text: "hi" } }] },
      { text: "done" },
    ]);
    const agent = new Agent({ name: "test", model, tools });
    await new Runner({ tracingDisabled: true }).run(agent, "echo");
    expect(calls).toEqual(["echo"]);
    expect(functionResultsIn(requests[1])[0]?.output).toEqual({ type: "text", text: 'echoed {"text":"hi"}' });
  });
});
