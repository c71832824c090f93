// Both protocol eras, both ways: toolwire serves 2026-07-28 (stateless) and 2025 clients, and bridges servers of either.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import type { RegistryReport } from "../../src/index.js";
import { connectMcpServer, serveMcp } from "../../src/mcp/api.js";
import { TOOLS_PAGE_SIZE } from "../../src/mcp/server/tool-server.js";
import { tempWorkspace } from "./helpers/cli.js";
import { everythingServer, minimalEnv } from "./helpers/mcp-servers.js";
import { serveStdio } from "./helpers/serve-stdio.js";

const TASK_SERVER = fileURLToPath(new URL("./helpers/mcp-task-server.mjs", import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
const celsius = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] } as const;

function servedSession() {
  return createAgentSession({
    registry: createToolRegistry({
      custom: [
        defineTool({
          name: "weather",
          title: "Weather",
          description: "Structured weather",
          inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          outputSchema: celsius,
          annotations: { readOnlyHint: true },
          icons: [{ src: "https://example.com/weather.svg", mimeType: "image/svg+xml" }],
          _meta: { "example.com/team": "forecasts" },
          execute: ({ city }) => ({
            content: [{ type: "text", text: `${city}: 22C` }],
            details: { structuredContent: { celsius: 22 } },
          }),
        }),
      ],
    }),
  });
}

describe("serveMcp over HTTP", () => {
  it("answers a 2026-07-28 client statelessly and a 2025 client with a session, on one URL", async () => {
    const handle = await serveMcp(servedSession(), { transport: "http", port: 0 });
    cleanups.push(() => handle.close());
    const url = new URL(handle.url as string);

    const modern = new ModernClient({ name: "modern", version: "1.0.0" }, MODERN);
    await modern.connect(new ModernHttpTransport(url));
    cleanups.push(() => modern.close());
    expect(modern.getProtocolEra()).toBe("modern");
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await modern.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: "weather",
        title: "Weather",
        outputSchema: celsius,
        annotations: { readOnlyHint: true },
        icons: [{ src: "https://example.com/weather.svg", mimeType: "image/svg+xml" }],
        _meta: { "example.com/team": "forecasts" },
      }),
    ]);
    const result = await modern.callTool({ name: "weather", arguments: { city: "Oslo" } });
    expect(result).toMatchObject({
      content: [{ type: "text", text: "Oslo: 22C" }],
      structuredContent: { celsius: 22 },
    });
    const refused = await modern.callTool({ name: "weather", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(handle.sessions).toBe(0);

    const legacy = new LegacyClient({ name: "legacy", version: "1.0.0" });
    await legacy.connect(new LegacyHttpTransport(url));
    cleanups.push(() => legacy.close());
    expect(legacy.getServerVersion()?.name).toBe("toolwire");
    const listed = await legacy.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["weather"]);
    expect(listed.tools[0]?.outputSchema).toEqual(celsius);
    const called = await legacy.callTool({ name: "weather", arguments: { city: "Rome" } });
    expect(called.content).toEqual([{ type: "text", text: "Rome: 22C" }]);
    expect(handle.sessions).toBe(1);
  });
});

describe("serveMcp approvals for a 2026-07-28 client", () => {
  async function served(answer: { action: "accept" | "decline"; content?: Record<string, string> } | undefined) {
    const runs: unknown[] = [];
    const session = createAgentSession({
      registry: createToolRegistry({
        custom: [
          defineTool({
            name: "deploy",
            description: "Deploys",
            inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
            execute: (input) => {
              runs.push(input);
              return `deployed ${input.env}`;
            },
          }),
        ],
      }),
      approvals: { require: ["deploy"] },
    });
    const handle = await serveMcp(session, { transport: "http", port: 0 });
    cleanups.push(() => handle.close());
    const asked: string[] = [];
    const client = new ModernClient(
      { name: "approver", version: "1.0.0" },
      { ...MODERN, capabilities: answer === undefined ? {} : { elicitation: {} } },
    );
    if (answer !== undefined) {
      client.setRequestHandler("elicitation/create", async (request) => {
        asked.push(String(request.params.message));
        return answer;
      });
    }
    await client.connect(new ModernHttpTransport(new URL(handle.url as string)));
    cleanups.push(() => client.close());
    return { client, runs, asked };
  }

  it("asks through an input_required result, and runs the call once the client's user accepts", async () => {
    const { client, runs, asked } = await served({ action: "accept" });
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } });
    expect(result.content).toEqual([{ type: "text", text: "deployed prod" }]);
    expect(runs).toEqual([{ env: "prod" }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Approve the call deploy \{"env":"prod"\}\? \(input sha256:[0-9a-f]{64}\)$/);
  });

  it("declines with the user's reason, and never runs the call", async () => {
    const { client, runs } = await served({ action: "decline", content: { reason: "not today" } });
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "Tool call declined: not today" }] });
    expect(runs).toEqual([]);
  });

  it("answers approval-required to a client that cannot ask its user", async () => {
    const { client, runs } = await served(undefined);
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("needs a person's approval");
    expect(runs).toEqual([]);
  });
});

describe("serveMcp log messages", () => {
  it("sends a tool's context.log messages at or above the level the client set", async () => {
    const session = createAgentSession({
      registry: createToolRegistry({
        custom: [
          defineTool({
            name: "chatty",
            description: "Logs twice",
            inputSchema: { type: "object", properties: {} },
            execute: (_input, { log }) => {
              log?.("info", "routine");
              log?.("error", { failed: "step 2" }, "worker");
              return "done";
            },
          }),
        ],
      }),
    });
    const handle = await serveMcp(session, { transport: "http", port: 0 });
    cleanups.push(() => handle.close());
    const client = new LegacyClient({ name: "logs", version: "1.0.0" });
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
    });
    await client.connect(new LegacyHttpTransport(new URL(handle.url as string)));
    cleanups.push(() => client.close());
    await client.setLoggingLevel("error");
    await client.callTool({ name: "chatty", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages).toEqual([{ level: "error", logger: "worker", data: { failed: "step 2" } }]);
  });
});

describe("serveMcp tools/list pages", () => {
  it("lists a large registry in pages of TOOLS_PAGE_SIZE with a cursor, and refuses a cursor it did not give", async () => {
    const many = Array.from({ length: TOOLS_PAGE_SIZE * 2 + 7 }, (_, index) =>
      defineTool({
        name: `tool_${String(index).padStart(4, "0")}`,
        description: "one of many",
        inputSchema: { type: "object", properties: {} },
        execute: () => "ok",
      }),
    );
    const handle = await serveMcp(createAgentSession({ registry: createToolRegistry({ custom: many }) }), {
      transport: "http",
      port: 0,
    });
    cleanups.push(() => handle.close());
    const client = new LegacyClient({ name: "pages", version: "1.0.0" });
    await client.connect(new LegacyHttpTransport(new URL(handle.url as string)));
    cleanups.push(() => client.close());
    const first = await client.listTools();
    expect(first.tools).toHaveLength(TOOLS_PAGE_SIZE);
    const second = await client.listTools({ cursor: first.nextCursor as string });
    const third = await client.listTools({ cursor: second.nextCursor as string });
    expect(third.tools).toHaveLength(7);
    expect(third.nextCursor).toBeUndefined();
    const names = [...first.tools, ...second.tools, ...third.tools].map((tool) => tool.name);
    expect(names).toEqual(many.map((tool) => tool.descriptor.name));
    await expect(client.listTools({ cursor: "not-a-cursor!" })).rejects.toThrow(/Invalid cursor/);
  });
});

describe("toolwire serve over stdio", () => {
  it("serves a 2026-07-28 client that spawns it", async () => {
    const project = await tempWorkspace({ "a.txt": "served through MCP\n" });
    cleanups.push(() => project.remove());
    const client = new ModernClient({ name: "modern-stdio", version: "1.0.0" }, MODERN);
    await client.connect(new ModernStdioTransport(serveStdio(project.path)));
    cleanups.push(() => client.close());
    expect(client.getProtocolEra()).toBe("modern");
    const read = await client.callTool({ name: "read", arguments: { path: "a.txt" } });
    expect(read.content).toEqual([{ type: "text", text: "     1\tserved through MCP" }]);
  });
});

describe("connectMcpServer", () => {
  async function modernServer() {
    let version = 1;
    const handler = createMcpHandler(() => {
      const server = new McpServer(
        { name: "modern-upstream", version: "2.0.0" },
        { capabilities: { tools: { listChanged: true } } },
      );
      server.registerTool(
        "echo",
        { description: "Echo", inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({
          content: [{ type: "text", text }],
        }),
      );
      if (version > 1)
        server.registerTool("added", { description: "Added later" }, async () => ({
          content: [{ type: "text", text: "new" }],
        }));
      return server;
    });
    const node = toNodeHandler(handler);
    const http: HttpServer = createServer((req, res) => void node(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    return {
      url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
      addTool() {
        version++;
        handler.notify.toolsChanged();
      },
    };
  }

  it("bridges a 2026-07-28 server, says so, and follows its tool list changes on the listen stream", async () => {
    const upstream = await modernServer();
    const connection = await connectMcpServer({ id: "up", url: upstream.url });
    cleanups.push(() => connection.close());
    expect(connection.protocol).toEqual({ version: "2026-07-28", era: "modern" });
    expect(connection.serverInfo).toEqual({ name: "modern-upstream", version: "2.0.0" });
    const registry = createToolRegistry({ extensions: [connection] });
    const session = createAgentSession({ registry });
    const block = await session.dispatch({ id: "1", name: "up__echo", input: { text: "hi" } });
    expect(block.content).toEqual([{ type: "text", text: "hi" }]);
    const refreshed = new Promise<RegistryReport>((resolve) => registry.onRefresh(resolve));
    upstream.addTool();
    expect((await refreshed).added).toEqual(["up__added"]);
  });

  it("with protocol 2026-07-28, refuses a server that only speaks the 2025 family", async () => {
    const failed = await connectMcpServer(everythingServer(), { protocol: "2026-07-28" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ name: "McpConnectionError", code: "mcp-connect-failed", serverId: "everything" });
  });

  it("with protocol 2026-07-28, waits for a stdio server slow to start past the 3 s era probe", async () => {
    const connection = await connectMcpServer(
      {
        id: "slow",
        command: process.execPath,
        args: [TASK_SERVER],
        env: { ...minimalEnv(), STARTUP_DELAY_MS: "3500" },
      },
      { protocol: "2026-07-28" },
    );
    cleanups.push(() => connection.close());
    expect(connection.protocol).toEqual({ version: "2026-07-28", era: "modern" });
  });

  it("bridges a 2025-era server with the initialize handshake, and says so", async () => {
    const connection = await connectMcpServer(everythingServer());
    cleanups.push(() => connection.close());
    expect(connection.protocol?.era).toBe("legacy");
    expect(connection.protocol?.version).toMatch(/^2025-/);
  });
});
