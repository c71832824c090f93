// serveMcp with deferred tools: an MCP client is listed every tool, deferred ones included, and no tool_search.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { type McpServerHandle, serveMcp } from "../../src/mcp/api.js";

const tool = (name: string, description: string) =>
  defineTool({ name, description, inputSchema: { type: "object", properties: {} }, execute: () => `${name} ran` });

const session = createAgentSession({
  registry: createToolRegistry({
    custom: [tool("read", "Read a file"), tool("stocks", "Get a stock quote"), tool("weather", "Get the weather")],
    defer: ["stocks", "weather"],
  }),
});
let handle: McpServerHandle;
let client: Client;
beforeAll(async () => {
  handle = await serveMcp(session, { transport: "http", port: 0 });
  client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
});
afterAll(async () => {
  await client?.close();
  await handle?.close();
});

describe("serveMcp over a session with deferred tools", () => {
  it("lists every active tool, deferred ones included, without the session's tool_search", async () => {
    expect(session.activeToolNames).toContain("tool_search");
    const { tools } = await client.listTools();
    expect(tools.map((listed) => listed.name)).toEqual(["read", "stocks", "weather"]);
  });

  it("runs a deferred tool a client calls", async () => {
    const result = await client.callTool({ name: "stocks", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "stocks ran" }] });
  });

  it("still answers a call of tool_search, which it does not list", async () => {
    const result = await client.callTool({ name: "tool_search", arguments: { query: "weather" } });
    expect(result).toEqual({ content: [{ type: "text", text: "weather: Get the weather" }] });
  });
});
