// Parameter headers (2026-07-28, SEP-2243): the bridge mirrors declared parameters as Mcp-Param-* headers and leaves
// out tools whose declarations are invalid; serve checks the headers against the body (400 / -32020).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolResult } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, type McpConnectionError, serveMcp } from "../../src/mcp/api.js";
import { checkParamHeaders } from "../../src/mcp/server/gateway/check-param-headers.js";
import { startRecordingProxy } from "../support/recording-proxy.js";
import { modernMeta } from "./helpers/modern-meta.js";

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
        _meta: modernMeta(),
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

/**
 * A 2026-07-28 server whose one tool's schema can change without a list_changed notification, and which refuses a
 * call whose headers do not fit the schema as it is now (400 / -32020), as a server that changed its mind would.
 */
async function silentlyChangingServer() {
  const state = {
    schema: { type: "object", properties: { region: { type: "string" } } } as Record<string, unknown>,
    /** Refuse every call with -32020, whatever its headers. */
    refuse: false,
  };
  let lists = 0;
  const handler = toNodeHandler(
    createMcpHandler(
      () => {
        const server = new Server({ name: "changing", version: "1" }, { capabilities: { tools: {} } });
        server.setRequestHandler("tools/list", () => {
          lists++;
          return { tools: [{ name: "where", inputSchema: state.schema as never }] };
        });
        server.setRequestHandler("tools/call", (request) => ({
          content: [{ type: "text", text: `at ${String(request.params.arguments?.region)}` }],
        }));
        return server;
      },
      { legacy: "reject" },
    ),
  );
  const http = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    const mismatch = state.refuse || checkParamHeaders(state.schema, body?.params?.arguments, request.headers);
    if (body?.method === "tools/call" && mismatch) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32020, message: "Header mismatch" } }),
      );
      return;
    }
    await handler(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => http.close(resolve)));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, state, lists: () => lists };
}

describe("the bridge after a header mismatch", () => {
  it("lists the tools again and makes the call once more with the headers now declared", async () => {
    const upstream = await silentlyChangingServer();
    const connection = await connectMcpServer({ id: "up", url: upstream.url, protocol: "2026-07-28" });
    cleanups.push(() => connection.close());
    upstream.state.schema = {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
    };
    const tool = connection.tools[0] as AgentTool;
    const result = await run(tool, { region: "eu" });
    expect(result.content).toEqual([{ type: "text", text: "at eu" }]);
    expect(upstream.lists()).toBe(2);
  });

  it("lists once and gives up with an error result when the listing did not change the tool", async () => {
    const upstream = await silentlyChangingServer();
    const connection = await connectMcpServer({ id: "up", url: upstream.url, protocol: "2026-07-28" });
    cleanups.push(() => connection.close());
    upstream.state.refuse = true;
    const tool = connection.tools[0] as AgentTool;
    await expect(run(tool, { region: "eu" })).rejects.toMatchObject({ message: expect.stringContaining("-32020") });
    expect(upstream.lists()).toBe(2);
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
