// Parameter headers (2026-07-28, SEP-2243): the bridge mirrors declared parameters as Mcp-Param-* headers and leaves
// out tools whose declarations are invalid; serve checks the headers against the body (400 / -32020).
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolResult } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, type McpConnectionError, serveMcp } from "../../src/mcp/api.js";
import { startRecordingProxy } from "../support/recording-proxy.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** How many times `query` ran. */
let ran = 0;

const query = defineTool({
  name: "query",
  description: "Runs a query in a region",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      options: { type: "object", properties: { limit: { type: "integer", "x-mcp-header": "Limit" } } },
      sql: { type: "string" },
    },
    required: ["region", "sql"],
  },
  execute: ({ region, sql }) => {
    ran++;
    return `${region}: ${sql}`;
  },
});

/** Declares a header on a `number` property, which the spec does not allow. */
const badlyDeclared = defineTool({
  name: "measure",
  description: "Declares a header on a number",
  inputSchema: { type: "object", properties: { size: { type: "number", "x-mcp-header": "Size" } } },
  execute: () => "measured",
});

/** Runs a bridged tool directly, as the session would. */
async function run(tool: AgentTool, input: JsonObject): Promise<ToolResult> {
  const context = { signal: new AbortController().signal, onUpdate: () => {} } as unknown as ToolCallContext;
  return (await tool.execute(input, context)) as ToolResult;
}

async function serve() {
  const session = createAgentSession({ registry: createToolRegistry({ custom: [query, badlyDeclared] }) });
  const handle = await serveMcp(session, { transport: "http", port: 0 });
  cleanups.push(() => handle.close());
  return handle.url as string;
}

/** A raw 2026-07-28 tools/call of `query` with `headers`. */
async function rawCall(url: string, args: Record<string, unknown>, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "query",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "query",
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the bridge over HTTP", () => {
  it("sends a declared parameter's value as its Mcp-Param header, Base64 when it is not plain ASCII", async () => {
    const url = await serve();
    const proxy = await startRecordingProxy(url);
    cleanups.push(() => proxy.close());
    const connection = await connectMcpServer({ id: "up", url: proxy.url, protocol: "2026-07-28" });
    cleanups.push(() => connection.close());
    const tool = connection.tools.find((entry) => entry.descriptor.name === "up__query");
    if (tool === undefined) throw new Error("up__query is not bridged");

    const plain = await run(tool, { region: "us-west1", options: { limit: 5 }, sql: "select 1" });
    expect(plain.isError).not.toBe(true);
    const [first] = proxy.calls("tools/call");
    expect(first?.headers["mcp-param-region"]).toBe("us-west1");
    expect(first?.headers["mcp-param-limit"]).toBe("5");

    const encoded = await run(tool, { region: "Zürich ", sql: "select 2" });
    expect(encoded.content).toEqual([{ type: "text", text: "Zürich : select 2" }]);
    const second = proxy.calls("tools/call")[1];
    expect(second?.headers["mcp-param-region"]).toBe(`=?base64?${Buffer.from("Zürich ").toString("base64")}?=`);
    // No value, no header.
    expect(second?.headers["mcp-param-limit"]).toBeUndefined();
  });

  it("leaves out a tool whose header declarations are invalid, saying why", async () => {
    const url = await serve();
    const errors: McpConnectionError[] = [];
    const connection = await connectMcpServer(
      { id: "up", url, protocol: "2026-07-28" },
      { onError: (error) => errors.push(error) },
    );
    cleanups.push(() => connection.close());
    expect(connection.tools.map((entry) => entry.descriptor.name)).toEqual(["up__query"]);
    expect(connection.skipped).toEqual([
      { toolName: "measure", reason: expect.stringMatching(/parameter headers are invalid.*size.*number/) },
    ]);
    expect(errors).toEqual([expect.objectContaining({ code: "mcp-tool-skipped", serverId: "up" })]);
    expect(errors[0]?.message).toContain("measure");
  });
});

describe("serve checks Mcp-Param headers against the body", () => {
  it("runs a call whose headers match, plain or Base64, integers compared as numbers", async () => {
    const url = await serve();
    const plain = await rawCall(
      url,
      { region: "eu", options: { limit: 3 }, sql: "s" },
      { "mcp-param-region": "eu", "mcp-param-limit": "3" },
    );
    expect(plain.status).toBe(200);
    expect(plain.body.result).toMatchObject({ content: [{ type: "text", text: "eu: s" }] });
    const encoded = await rawCall(
      url,
      { region: "eu", options: { limit: 3 }, sql: "s" },
      { "mcp-param-region": `=?base64?${Buffer.from("eu").toString("base64")}?=`, "mcp-param-limit": "3.0" },
    );
    expect(encoded.status).toBe(200);
  });

  it("refuses a header that disagrees with the body with 400 and -32020, and runs nothing", async () => {
    const url = await serve();
    const before = ran;
    const { status, body } = await rawCall(url, { region: "eu", sql: "s" }, { "mcp-param-region": "us" });
    expect(ran).toBe(before);
    expect(status).toBe(400);
    expect(body).toMatchObject({ id: 7, error: { code: -32020 } });
    expect(String((body.error as { message: string }).message)).toContain("Mcp-Param-Region");
  });

  it("refuses a missing header, and one with malformed Base64", async () => {
    const url = await serve();
    const missing = await rawCall(url, { region: "eu", sql: "s" }, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: -32020 } });
    const malformed = await rawCall(url, { region: "eu", sql: "s" }, { "mcp-param-region": "=?base64?e!u?=" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: { code: -32020 } });
  });
});
