// The client bridge against misbehaving servers: bad configs, failed starts, garbage, silence, deaths, protocol errors.
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ToolCallError } from "../../src/core/errors.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool, RegistryReport, ToolCallContext } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, type McpConnection, McpConnectionError } from "../../src/mcp/api.js";
import {
  EXIT_AT_START_SOURCE,
  type FakeBehaviour,
  fakeServerSource,
  GARBAGE_AT_START_SOURCE,
  onceOnlySource,
  SILENT_SOURCE,
  scriptServer,
  tempFolder,
} from "./helpers/mcp-servers.js";

let folder: Awaited<ReturnType<typeof tempFolder>>;
beforeAll(async () => {
  folder = await tempFolder();
});
afterAll(() => folder.remove());

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function fake(id: string, behaviour: FakeBehaviour, options: Parameters<typeof connectMcpServer>[1] = {}) {
  const connection = await connectMcpServer(await scriptServer(folder.path, id, fakeServerSource(behaviour)), options);
  open.push(connection);
  return connection;
}

async function connectError(promise: Promise<unknown>): Promise<McpConnectionError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpConnectionError);
  return error as McpConnectionError;
}

function context(): ToolCallContext {
  return { toolCallId: "c1", signal: new AbortController().signal, onUpdate: () => {} };
}

async function callError(tool: AgentTool): Promise<ToolCallError> {
  const error = await tool.execute({}, context()).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return error as ToolCallError;
}

describe("connectMcpServer config errors", () => {
  it("rejects a config without an id", async () => {
    const error = await connectError(connectMcpServer({ id: "", command: "node" }));
    expect(error.code).toBe("invalid-mcp-config");
    expect(error.message).toContain("non-empty string id");
  });

  it("rejects a config with both a command and a url", async () => {
    const error = await connectError(
      connectMcpServer({ id: "x", command: "node", url: "http://127.0.0.1:1/" } as never),
    );
    expect(error).toMatchObject({ code: "invalid-mcp-config", serverId: "x" });
    expect(error.message).toBe("MCP server x needs exactly one of command (stdio) or url (Streamable HTTP)");
  });

  it("rejects a timeout that is not a positive number", async () => {
    const error = await connectError(connectMcpServer({ id: "x", command: "node" }, { timeoutMs: -1 }));
    expect(error.message).toBe("MCP server x: timeoutMs must be a positive number, got -1");
  });
});

describe("connectMcpServer when the server fails to start", () => {
  it("reports a command that does not exist", async () => {
    const error = await connectError(connectMcpServer({ id: "ghost", command: "toolwire-no-such-command-xyz" }));
    expect(error).toMatchObject({ code: "mcp-connect-failed", serverId: "ghost" });
    expect(error.message).toContain("MCP server ghost could not be started (toolwire-no-such-command-xyz)");
    expect(error.message).toContain("ENOENT");
  });

  it("reports a server that exits at start, with its exit code and stderr", async () => {
    const error = await connectError(
      connectMcpServer(await scriptServer(folder.path, "quitter", EXIT_AT_START_SOURCE)),
    );
    expect(error).toMatchObject({ code: "mcp-connect-failed", serverId: "quitter" });
    expect(error.message).toContain("MCP server quitter exited with code 2");
    expect(error.message).toContain("fatal: missing config file");
  });

  it("reports a server that writes garbage to stdout as a protocol error naming the line", async () => {
    const error = await connectError(
      connectMcpServer(await scriptServer(folder.path, "noisy", GARBAGE_AT_START_SOURCE)),
    );
    expect(error).toMatchObject({ code: "mcp-protocol-error", serverId: "noisy" });
    expect(error.message).toContain("MCP server noisy broke the protocol");
    expect(error.message).toContain("Server starting on stdio...");
  });

  it("times out a server that never answers the handshake", async () => {
    const config = await scriptServer(folder.path, "mute", SILENT_SOURCE);
    const error = await connectError(connectMcpServer(config, { connectTimeoutMs: 300 }));
    expect(error).toMatchObject({ code: "mcp-timeout", serverId: "mute" });
    expect(error.message).toBe("MCP server mute did not complete the handshake within 300 ms");
  });
});

describe("bridged calls when the server misbehaves", () => {
  it("turns a protocol error for an unknown tool into an error naming the server", async () => {
    const connection = await fake("strict", "protocol-error-on-call");
    const error = await callError(connection.tools[0] as AgentTool);
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe("MCP server strict refused the call to ping: Tool ping not found (MCP error -32602)");
    expect(connection.connected).toBe(true);
  });

  it("times out a call the server never answers", async () => {
    const connection = await fake("sleepy", "hang-on-call", { timeoutMs: 200 });
    const error = await callError(connection.tools[0] as AgentTool);
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("MCP server sleepy did not answer the call to ping within 200 ms");
  });

  it("fails a call in flight when the server writes garbage, and reconnects on the next call", async () => {
    const connection = await fake("garbled", "garbage-on-call", { backoff: { initialDelayMs: 10 } });
    const tool = connection.tools[0] as AgentTool;
    const error = await callError(tool);
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain("MCP server garbled broke the protocol");
    expect(error.message).toContain("debug: this is not JSON");
    expect(error.message).toContain("during the call to ping");
    expect(connection.connected).toBe(false);
    const again = await callError(tool); // a new process, which writes garbage again
    expect(again.message).toContain("broke the protocol");
  });

  it("fails the calls of a server that exits mid-call while the session and other servers go on", async () => {
    const dying = await fake("dying", "exit-on-call", { backoff: { initialDelayMs: 10 } });
    const healthy = await fake("healthy", "pong");
    const registry = createToolRegistry({ extensions: [dying, healthy] });
    const session = createAgentSession({ registry });
    const [first, other] = await session.dispatchAll([
      { id: "1", name: "dying__ping", input: {} },
      { id: "2", name: "healthy__ping", input: {} },
    ]);
    expect(first?.is_error).toBe(true);
    expect(first?.content[0]).toMatchObject({ text: expect.stringContaining("MCP server dying exited with code 3") });
    expect(other).toEqual({ type: "tool_result", tool_use_id: "2", content: [{ type: "text", text: "pong" }] });
    expect(session.activeToolNames).toEqual(["dying__ping", "healthy__ping"]);
    const second = await session.dispatch({ id: "3", name: "dying__ping", input: {} });
    expect(second.content[0]).toMatchObject({ text: expect.stringContaining("exited with code 3") });
  });

  it("reports a failed reconnect in the call's error result and tries again on a later call", async () => {
    const config = await scriptServer(folder.path, "once", onceOnlySource(join(folder.path, "once.marker")));
    const connection = await connectMcpServer(config, { backoff: { initialDelayMs: 10 } });
    open.push(connection);
    const tool = connection.tools[0] as AgentTool;
    expect((await callError(tool)).message).toContain("MCP server once exited with code 3, during the call to ping");
    const reconnect = await callError(tool);
    expect(reconnect.code).toBe("execution-failed");
    expect(reconnect.message).toContain("MCP server once exited with code 1");
    expect(reconnect.message).toContain("refusing to start twice");
    expect(reconnect.message).toContain("Reconnecting to MCP server once failed; a later call will try again.");
    expect((await callError(tool)).message).toContain("Reconnecting to MCP server once failed");
    expect(connection.tools).toHaveLength(1); // the tool stays registered throughout
  });

  it("fails a call in flight when its connection is closed", async () => {
    const connection = await fake("shutting", "hang-on-call");
    const pending = callError(connection.tools[0] as AgentTool);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await connection.close();
    const error = await pending;
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe("MCP server shutting was closed during the call to ping");
  });

  it("fails calls after close with a clear error", async () => {
    const connection = await fake("closing", "pong");
    await connection.close();
    const error = await callError(connection.tools[0] as AgentTool);
    expect(error.message).toBe("MCP server closing is closed: its connection was shut down");
  });
});

describe("tools/list", () => {
  it("reads every page, names colliding tools with -2, and routes each call to the server's own name", async () => {
    const connection = await fake("paged", "paged");
    expect(connection.tools.map((tool) => tool.descriptor.name)).toEqual([
      "paged__ping",
      "paged__read-file",
      "paged__read-file-2",
    ]);
    expect(connection.tools.map((tool) => tool.descriptor.executor)).toEqual([
      { kind: "mcp", serverId: "paged", toolName: "ping" },
      { kind: "mcp", serverId: "paged", toolName: "read.file" },
      { kind: "mcp", serverId: "paged", toolName: "read-file" },
    ]);
    const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
    const [dotted, dashed] = await session.dispatchAll([
      { id: "1", name: "paged__read-file", input: {} },
      { id: "2", name: "paged__read-file-2", input: {} },
    ]);
    expect(dotted?.content).toEqual([{ type: "text", text: "called read.file" }]);
    expect(dashed?.content).toEqual([{ type: "text", text: "called read-file" }]);
  });

  it("starts a server that exits on the era probe once more, and speaks the 2025 handshake to it", async () => {
    const connection = await fake("rmcp-like", "exit-before-initialize");
    expect(connection.protocol?.era).toBe("legacy");
    const pong = await (connection.tools[0] as AgentTool).execute({}, context());
    expect(pong).toMatchObject({ content: [{ type: "text", text: "pong" }] });
  });

  it("skips a listed tool it cannot read (a broken inputSchema, no name) and bridges the rest", async () => {
    const connection = await fake("mixed", "broken-listing");
    expect(connection.tools.map((tool) => tool.descriptor.name)).toEqual(["mixed__ping", "mixed__later"]);
    expect(connection.skipped).toEqual([
      { toolName: "broken", reason: "its inputSchema is not a JSON Schema object" },
      { toolName: "(unnamed)", reason: "it has no name" },
    ]);
    const pong = await (connection.tools[0] as AgentTool).execute({}, context());
    expect(pong).toMatchObject({ content: [{ type: "text", text: "pong" }] });
  });

  it("refuses a server whose cursor never ends", async () => {
    const config = await scriptServer(folder.path, "loop", fakeServerSource("looping-cursor"));
    const error = await connectError(connectMcpServer(config));
    expect(error).toMatchObject({ code: "mcp-protocol-error", serverId: "loop" });
    expect(error.message).toContain("MCP server loop kept paging tools/list");
  });
});

describe("structuredContent against the server's outputSchema", () => {
  it("passes content that fits, and makes an error result naming the violation when it does not", async () => {
    const connection = await fake("wx", "structured");
    const weather = connection.tools[0] as AgentTool;
    expect(weather.descriptor.outputSchema).toMatchObject({ required: ["celsius"] });
    expect(weather.descriptor.icons).toEqual([{ src: "https://example.com/sun.png", mimeType: "image/png" }]);
    expect(weather.descriptor._meta).toEqual({ "example.com/owner": "weather-team" });
    const good = await weather.execute({ mode: "good" }, context());
    expect(good).toMatchObject({
      content: [{ type: "text", text: "weather" }],
      details: { structuredContent: { celsius: 21 } },
    });
    expect((good as { isError?: boolean }).isError).toBeUndefined();
    const bad = await weather.execute({ mode: "bad" }, context());
    expect(bad).toMatchObject({ isError: true, details: { structuredContent: { celsius: "warm" } } });
    expect((bad as { content: { text: string }[] }).content[0]?.text).toBe(
      'MCP server wx answered the call to weather, but its structuredContent does not match its outputSchema: structuredContent.celsius: must be number, got string "warm". This is a fault of the server, not of your call.',
    );
    const none = await weather.execute({ mode: "none" }, context());
    expect((none as { content: { text: string }[] }).content[0]?.text).toContain(
      "it sent no structuredContent although its outputSchema asks for it",
    );
  });
});

describe("log messages", () => {
  it("pass an upstream server's log messages to the running call's context.log", async () => {
    const connection = await fake("chatty", "logs-on-call");
    const logs: unknown[] = [];
    const result = await (connection.tools[0] as AgentTool).execute(
      {},
      { ...context(), log: (level, data, logger) => logs.push({ level, data, logger }) },
    );
    expect(result).toMatchObject({ content: [{ type: "text", text: "logged" }] });
    expect(logs).toEqual([{ level: "warning", data: { disk: "low" }, logger: "fake" }]);
  });
});

describe("tools/list_changed", () => {
  it("re-lists and refreshes a registry: a new Map and a report naming what changed", async () => {
    const connection = await fake("dyn", "dynamic");
    const registry = createToolRegistry({ extensions: [connection] });
    const session = createAgentSession({ registry });
    const before = registry.tools;
    const refreshed = new Promise<RegistryReport>((resolve) => registry.onRefresh(resolve));
    await session.dispatch({ id: "1", name: "dyn__add", input: {} });
    const report = await refreshed;
    expect(report.added).toEqual(["dyn__added-1"]);
    expect(report.removed).toEqual([]);
    expect(registry.tools).not.toBe(before);
    expect(registry.tools.get("dyn__ping")).toBe(before.get("dyn__ping")); // unchanged tools keep their wrapper
    expect(session.activeToolNames).toContain("dyn__added-1");
    const removed = new Promise<RegistryReport>((resolve) => registry.onRefresh(resolve));
    await session.dispatch({ id: "2", name: "dyn__remove", input: {} });
    expect((await removed).removed).toEqual(["dyn__added-1"]);
    expect(connection.tools.map((tool) => tool.descriptor.name)).toEqual(["dyn__ping", "dyn__add", "dyn__remove"]);
  });
});
