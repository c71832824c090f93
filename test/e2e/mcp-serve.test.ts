// serveMcp tested with the official SDK client over stdio and Streamable HTTP, and the gateway chained to itself.
import { writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import type { AgentSession, RegistryReport } from "../../src/index.js";
import {
  connectMcpServer,
  type McpConnection,
  McpConnectionError,
  McpServeError,
  type McpServerHandle,
  serveMcp,
} from "../../src/mcp/api.js";
import { CLI } from "./helpers/cli.js";
import { everythingServer, fakeServerSource, minimalEnv, scriptServer, tempFolder } from "./helpers/mcp-servers.js";

const addSchema = {
  type: "object",
  properties: { a: { type: "number", description: "first" }, b: { type: "number" } },
  required: ["a", "b"],
  additionalProperties: false,
  $schema: "http://json-schema.org/draft-07/schema#",
} as const;

function makeSession(): AgentSession {
  const tools = [
    defineTool({
      name: "add",
      title: "Add",
      description: "Adds two numbers",
      inputSchema: addSchema,
      annotations: { readOnlyHint: true },
      execute: ({ a, b }) => `${a + b}`,
    }),
    defineTool({
      name: "weather",
      description: "Structured weather",
      inputSchema: { type: "object", properties: {} },
      execute: () => ({ content: [{ type: "text", text: "22C" }], details: { structuredContent: { celsius: 22 } } }),
    }),
    defineTool({
      name: "explode",
      description: "Always throws",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        throw new Error("kaboom");
      },
    }),
    defineTool({
      name: "guarded",
      description: "Blocked by a hook",
      inputSchema: { type: "object", properties: {} },
      execute: () => "should not run",
    }),
    defineTool({
      name: "steps",
      description: "Reports progress",
      inputSchema: { type: "object", properties: {} },
      execute: async (_input, context) => {
        context.onUpdate({ content: [{ type: "text", text: "half way" }] });
        await new Promise((resolve) => setTimeout(resolve, 20));
        return "done";
      },
    }),
  ];
  return createAgentSession({
    registry: createToolRegistry({ custom: tools }),
    beforeToolCall: [(event) => (event.toolName === "guarded" ? { block: true, reason: "not today" } : undefined)],
  });
}

function texts(result: unknown): string {
  return (result as { content: { type: string; text?: string }[] }).content.map((block) => block.text ?? "").join("\n");
}

describe("serveMcp over Streamable HTTP with the official SDK client", () => {
  let session: AgentSession;
  let handle: McpServerHandle;
  let client: Client;
  const listChanged: number[] = [];

  beforeAll(async () => {
    session = makeSession();
    handle = await serveMcp(session, { transport: "http", port: 0 });
    client = new Client({ name: "sdk-test", version: "1.0.0" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged.push(Date.now());
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
  });
  afterAll(async () => {
    await client?.close();
    await handle?.close();
  });

  it("binds to loopback on the port it was given (0: a free one)", () => {
    expect(handle.port).toBeGreaterThan(0);
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/mcp`);
  });

  it("lists the active tools with their JSON Schemas unchanged", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(session.activeToolNames);
    const add = tools.find((tool) => tool.name === "add");
    expect(JSON.stringify(add?.inputSchema)).toBe(JSON.stringify(addSchema));
    expect(add).toMatchObject({ title: "Add", description: "Adds two numbers", annotations: { readOnlyHint: true } });
  });

  it("calls a tool through dispatch", async () => {
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(result).toEqual({ content: [{ type: "text", text: "42" }] });
  });

  it("passes details.structuredContent on as structuredContent", async () => {
    const result = await client.callTool({ name: "weather", arguments: {} });
    expect(result.structuredContent).toEqual({ celsius: 22 });
  });

  it("answers invalid input with an isError result from validation", async () => {
    const result = await client.callTool({ name: "add", arguments: { a: "two" } });
    expect(result.isError).toBe(true);
    expect(texts(result)).toContain("Invalid input for tool add");
  });

  it("answers a throwing tool, a blocked call and an unknown tool with isError results", async () => {
    const thrown = await client.callTool({ name: "explode", arguments: {} });
    expect(thrown).toMatchObject({ isError: true });
    expect(texts(thrown)).toBe("Tool explode failed: kaboom");
    const blocked = await client.callTool({ name: "guarded", arguments: {} });
    expect(texts(blocked)).toBe("Tool call blocked: not today");
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)).toContain("Tool nope not found");
  });

  it("forwards tool updates as progress notifications when the client asks", async () => {
    const progress: unknown[] = [];
    const result = await client.callTool({ name: "steps", arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(texts(result)).toBe("done");
    expect(progress).toEqual([{ progress: 1, message: "half way" }]);
  });

  it("sends tools/list_changed when the active set changes, and lists the new set", async () => {
    const before = listChanged.length;
    session.setActiveToolsByName(["add", "weather"]);
    await expect.poll(() => listChanged.length).toBeGreaterThan(before);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add", "weather"]);
    const inactive = await client.callTool({ name: "explode", arguments: {} });
    expect(texts(inactive)).toContain("Tool explode not found");
    session.activateAllTools();
  });

  it("refuses bad options and a port that is taken with typed errors", async () => {
    await expect(serveMcp(session, { transport: "websocket" } as never)).rejects.toMatchObject({
      code: "invalid-serve-options",
      message: 'serveMcp needs transport "stdio" or "http", got "websocket"',
    });
    await expect(serveMcp(session, { transport: "http", port: -1 })).rejects.toMatchObject({
      code: "invalid-serve-options",
      message: "serveMcp needs a port from 0 to 65535, got -1",
    });
    const taken = serveMcp(session, { transport: "http", port: handle.port as number });
    await expect(taken).rejects.toBeInstanceOf(McpServeError);
    await expect(taken).rejects.toMatchObject({ code: "serve-failed", message: expect.stringContaining("EADDRINUSE") });
  });

  it("refuses a request whose Host header is not loopback (DNS rebinding)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port: handle.port,
          path: "/mcp",
          method: "POST",
          headers: {
            host: "evil.example",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
      );
    });
    expect(status).toBe(403);
  });
});

describe("the bridge chained to serveMcp over HTTP", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("bridges a served session and follows its active-set changes into the outer registry", async () => {
    const inner = makeSession();
    const handle = await serveMcp(inner, { transport: "http", port: 0 });
    cleanups.push(() => handle.close());
    const connection = await connectMcpServer({ id: "inner", url: handle.url as string });
    cleanups.push(() => connection.close());
    const outer = createToolRegistry({ extensions: [connection] });
    const session = createAgentSession({ registry: outer });
    expect(session.activeToolNames).toEqual([
      "inner__add",
      "inner__explode",
      "inner__guarded",
      "inner__steps",
      "inner__weather",
    ]);
    const sum = await session.dispatch({ id: "1", name: "inner__add", input: { a: 1, b: 2 } });
    expect(sum.content).toEqual([{ type: "text", text: "3" }]);
    expect(connection.protocol).toEqual({ version: "2026-07-28", era: "modern" });
    expect(handle.sessions).toBe(0); // 2026-07-28 is stateless: no session is kept on the server
    const refreshed = new Promise<RegistryReport>((resolve) => outer.onRefresh(resolve));
    inner.setActiveToolsByName(["add"]);
    const report = await refreshed;
    expect(report.removed.sort()).toEqual(["inner__explode", "inner__guarded", "inner__steps", "inner__weather"]);
    expect([...outer.tools.keys()]).toEqual(["inner__add"]);
    await connection.close();
  });

  it("rejects a first connection to an HTTP server that is not there", async () => {
    const gone = await serveMcp(makeSession(), { transport: "http", port: 0 });
    await gone.close();
    const error = await connectMcpServer({ id: "absent", url: gone.url as string }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ code: "mcp-connect-failed", serverId: "absent" });
    expect((error as Error).message).toContain("MCP server absent could not be connected");
  });

  it("fails a call promptly with an error naming the server when the HTTP server is gone, and reconnects when it is back", async () => {
    const inner = makeSession();
    const first = await serveMcp(inner, { transport: "http", port: 0 });
    const connection = await connectMcpServer(
      { id: "web", url: first.url as string },
      { backoff: { initialDelayMs: 10 } },
    );
    cleanups.push(() => connection.close());
    const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
    await first.close();
    const failed = await session.dispatch({ id: "1", name: "web__add", input: { a: 1, b: 1 } });
    expect(failed.is_error).toBe(true);
    expect(texts(failed)).toContain("MCP server web could not be reached");
    const again = await serveMcp(inner, { transport: "http", port: first.port as number });
    cleanups.push(() => again.close());
    const ok = await session.dispatch({ id: "2", name: "web__add", input: { a: 1, b: 1 } });
    expect(ok.content).toEqual([{ type: "text", text: "2" }]);
  });
});

describe("toolwire serve as a gateway to MCP servers, over stdio", () => {
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let configPath: string;
  /** `toolwire serve --stdio` over a config file: a gateway to MCP servers only, the built-ins off. */
  const gateway = (config: string) => [CLI, "serve", "--stdio", "--config", config];
  const gatewayConfig = (servers: unknown[]) => JSON.stringify({ builtins: { enabled: false }, mcpServers: servers });
  beforeAll(async () => {
    folder = await tempFolder();
    configPath = join(folder.path, "toolwire.config.json");
    await writeFile(
      configPath,
      gatewayConfig([{ ...everythingServer(), include: ["echo", "get-sum", "trigger-long-running-operation"] }]),
    );
  });
  afterAll(() => folder?.remove());

  it("serves bridged tools to the official SDK client over stdio", async () => {
    const client = new Client({ name: "sdk-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: gateway(configPath),
        cwd: folder.path,
        env: minimalEnv(),
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        "everything__echo",
        "everything__get-sum",
        "everything__trigger-long-running-operation",
      ]);
      const result = await client.callTool({ name: "everything__get-sum", arguments: { a: 20, b: 22 } });
      expect(result.content).toEqual([{ type: "text", text: "The sum of 20 and 22 is 42." }]);
    } finally {
      await client.close();
    }
  });

  it("chains to itself: toolwire bridging a toolwire gateway that bridges server-everything", async () => {
    let connection: McpConnection | undefined;
    try {
      connection = await connectMcpServer({
        id: "gw",
        command: process.execPath,
        args: gateway(configPath),
        cwd: folder.path,
        env: minimalEnv(),
      });
      const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
      expect(session.activeToolNames).toEqual([
        "gw__everything__echo",
        "gw__everything__get-sum",
        "gw__everything__trigger-long-running-operation",
      ]);
      expect(connection.tools[0]?.descriptor.executor).toEqual({
        kind: "mcp",
        serverId: "gw",
        toolName: "everything__echo",
      });
      const echoed = await session.dispatch({ id: "1", name: "gw__everything__echo", input: { message: "hi" } });
      expect(echoed.content).toEqual([{ type: "text", text: "Echo: hi" }]);
      const invalid = await session.dispatch({ id: "2", name: "gw__everything__get-sum", input: { a: "x" } });
      expect(invalid.is_error).toBe(true);
      // progress travels through both bridges and the gateway's server
      const updates: string[] = [];
      session.on("tool_execution_update", (event) => {
        const block = event.partial.content[0];
        if (block?.type === "text") updates.push(block.text);
      });
      const slow = await session.dispatch({
        id: "3",
        name: "gw__everything__trigger-long-running-operation",
        input: { duration: 0.3, steps: 3 },
      });
      expect(slow.content[0]).toMatchObject({ text: expect.stringContaining("Long running operation completed") });
      expect(updates[0]).toMatch(/^progress 1: progress 1\/3/);
    } finally {
      await connection?.close();
    }
  });

  it("passes tools/list_changed through the gateway: the inner server's new tool reaches the outer registry", async () => {
    const dynamicConfig = join(folder.path, "dynamic.config.json");
    await writeFile(
      dynamicConfig,
      gatewayConfig([await scriptServer(folder.path, "dyn", fakeServerSource("dynamic"))]),
    );
    const connection = await connectMcpServer({
      id: "gw",
      command: process.execPath,
      args: gateway(dynamicConfig),
      cwd: folder.path,
      env: minimalEnv(),
    });
    try {
      const registry = createToolRegistry({ extensions: [connection] });
      const session = createAgentSession({ registry });
      const refreshed = new Promise<RegistryReport>((resolve) => registry.onRefresh(resolve));
      const added = await session.dispatch({ id: "1", name: "gw__dyn__add", input: {} });
      expect(added.content).toEqual([{ type: "text", text: "ok" }]);
      expect((await refreshed).added).toEqual(["gw__dyn__added-1"]);
      const called = await session.dispatch({ id: "2", name: "gw__dyn__added-1", input: {} });
      expect(called.content).toEqual([{ type: "text", text: "ok" }]);
    } finally {
      await connection.close();
    }
  });
});
