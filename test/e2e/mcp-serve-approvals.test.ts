// serveMcp asks the MCP client that made a call for approval through elicitation, when the client can answer one.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { type McpServerHandle, serveMcp } from "../../src/mcp/api.js";

const runs: unknown[] = [];
const danger = defineTool({
  name: "danger",
  description: "needs approval",
  inputSchema: { type: "object", properties: { command: { type: "string" } } },
  execute: (input) => {
    runs.push(input);
    return `ran ${input.command}`;
  },
});

let served: McpServerHandle;
beforeAll(async () => {
  const session = createAgentSession({
    registry: createToolRegistry({ custom: [danger] }),
    approvals: { require: ["danger"] },
  });
  served = await serveMcp(session, { transport: "http", host: "127.0.0.1", port: 0 });
});
afterAll(() => served.close());

async function client(answer?: (message: string) => ElicitResult): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const mcp = new Client(
    { name: "approving", version: "1.0.0" },
    answer === undefined ? {} : { capabilities: { elicitation: {} } },
  );
  if (answer !== undefined) {
    mcp.setRequestHandler(ElicitRequestSchema, (request) => {
      const message = String(request.params.message);
      asked.push(message);
      return answer(message);
    });
  }
  await mcp.connect(new StreamableHTTPClientTransport(new URL(served.url as string)));
  return { client: mcp, asked };
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join("");

describe("serveMcp and approvals", () => {
  it("asks the calling client through elicitation, with the input and its digest; accept runs the call", async () => {
    const { client: mcp, asked } = await client(() => ({ action: "accept", content: {} }));
    const result = await mcp.callTool({ name: "danger", arguments: { command: "ls" } });
    expect(text(result)).toBe("ran ls");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Approve the call danger \{"command":"ls"\}\? \(input sha256:[0-9a-f]{64}\)$/);
    expect(runs).toEqual([{ command: "ls" }]);
    await mcp.close();
  });

  it("decline (with the user's reason) never runs the call", async () => {
    const { client: mcp } = await client(() => ({ action: "decline", content: { reason: "not on prod" } }));
    const result = await mcp.callTool({ name: "danger", arguments: { command: "rm" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("Tool call declined: not on prod");
    expect(runs).toHaveLength(1);
    await mcp.close();
  });

  it("a client that cannot answer an elicitation gets approval-required, and the call does not run", async () => {
    const { client: mcp } = await client();
    const result = await mcp.callTool({ name: "danger", arguments: { command: "rm" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/needs a person's approval, and nobody here can give it/);
    expect(runs).toHaveLength(1);
    await mcp.close();
  });
});
