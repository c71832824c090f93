// serveMcp over a session in code mode: a client is listed run_code and not the code-only tools, which programs reach.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeMode } from "../../src/code-mode/create-code-mode.js";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { type McpServerHandle, serveMcp } from "../../src/mcp/api.js";

const tool = (name: string) =>
  defineTool({
    name,
    description: name,
    inputSchema: { type: "object", properties: {} },
    execute: () => `${name} ran`,
  });
const TOOLS = [tool("read"), tool("stocks"), tool("weather")];

const registry = createToolRegistry({ custom: TOOLS, codeOnly: ["stocks", "weather"] });
const session = createAgentSession({ registry });
const codeMode = createCodeMode(session);
registry.refresh({ custom: [...TOOLS, codeMode.source] });
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

describe("serveMcp over a session in code mode", () => {
  it("lists run_code and the tools that are not code-only", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((listed) => listed.name).sort()).toEqual(["read", "run_code"]);
  });

  it("runs a client's program, whose calls reach the code-only tools", async () => {
    const code = "return [await tools.stocks({}), await tools.weather({})];";
    const result = await client.callTool({ name: "run_code", arguments: { code } });
    expect(result).toEqual({ content: [{ type: "text", text: '["stocks ran","weather ran"]' }] });
  });

  it("still runs a code-only tool a client calls by name", async () => {
    const result = await client.callTool({ name: "stocks", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "stocks ran" }] });
  });
});
