// The client bridge against the real server-everything over stdio: listing, calling, results, list_changed, a kill.
import { getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool, ToolCallContext, ToolResult } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, type McpConnection } from "../../src/mcp/api.js";
import { everythingServer } from "./helpers/mcp-servers.js";

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/mcp/mcp-tools-list.everything.json", import.meta.url), "utf8"),
) as { result: { tools: { name: string; inputSchema: unknown; annotations?: unknown; title?: string }[] } };

const open: McpConnection[] = [];
async function connect(...args: Parameters<typeof connectMcpServer>): Promise<McpConnection> {
  const connection = await connectMcpServer(...args);
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

function toolNamed(connection: McpConnection, name: string): AgentTool {
  const tool = connection.tools.find((candidate) => candidate.descriptor.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${connection.tools.map((t) => t.descriptor.name)}`);
  return tool;
}

function context(overrides: Partial<ToolCallContext> = {}): ToolCallContext {
  return { toolCallId: "call-1", signal: new AbortController().signal, onUpdate: () => {}, ...overrides };
}

async function run(tool: AgentTool, input: Record<string, unknown>, ctx = context()): Promise<ToolResult> {
  return (await tool.execute(input as never, ctx)) as ToolResult;
}

describe("connectMcpServer with server-everything (one shared connection)", () => {
  let shared: McpConnection;
  beforeAll(async () => {
    shared = await connectMcpServer(everythingServer());
  });
  afterAll(() => shared?.close());

  it("bridges every listed tool as <server>__<tool> with MCP owner and executor refs and the schema unchanged", async () => {
    const connection = shared;
    expect(connection.serverId).toBe("everything");
    expect(connection.serverInfo?.name).toBe("mcp-servers/everything");
    const echo = toolNamed(connection, "everything__echo");
    expect(echo.descriptor.owner).toEqual({ kind: "mcp", serverId: "everything" });
    expect(echo.descriptor.executor).toEqual({ kind: "mcp", serverId: "everything", toolName: "echo" });
    const listed = fixture.result.tools.find((tool) => tool.name === "echo");
    expect(echo.descriptor.inputSchema).toEqual(listed?.inputSchema);
    expect(echo.descriptor.annotations).toEqual(listed?.annotations);
    expect(echo.descriptor.title).toBe("Echo Tool");
    const names = connection.tools.map((tool) => tool.descriptor.name);
    for (const name of ["echo", "get-sum", "get-tiny-image", "trigger-long-running-operation"]) {
      expect(names).toContain(`everything__${name}`);
    }
  });

  it("calls a tool and maps its text content", async () => {
    const connection = shared;
    const result = await run(toolNamed(connection, "everything__get-sum"), { a: 2, b: 3 });
    expect(result).toEqual({ content: [{ type: "text", text: "The sum of 2 and 3 is 5." }] });
  });

  it("maps image content to an image block", async () => {
    const connection = shared;
    const result = await run(toolNamed(connection, "everything__get-tiny-image"), {});
    const image = result.content.find((block) => block.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(image?.type === "image" && image.data.length).toBeGreaterThan(100);
  });

  it("maps resource links one to one, as sent", async () => {
    const connection = shared;
    const result = await run(toolNamed(connection, "everything__get-resource-links"), { count: 2 });
    const links = result.content.filter((block) => block.type === "resource_link");
    expect(links).toHaveLength(2);
    expect(links[0]).toMatchObject({ uri: expect.stringMatching(/^demo:\/\//), name: expect.any(String) });
    expect(result.details).toBeUndefined();
  });

  it("puts structuredContent in details.structuredContent", async () => {
    const connection = shared;
    const result = await run(toolNamed(connection, "everything__get-structured-content"), { location: "New York" });
    const details = result.details as { structuredContent: Record<string, unknown> };
    expect(details.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    expect(result.isError).toBeUndefined();
  });

  it("turns the server's isError result for bad arguments into an error result", async () => {
    const connection = shared;
    const result = await run(toolNamed(connection, "everything__get-sum"), { a: "x" });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("Invalid arguments") });
  });

  it("leaves no abort listeners piling up on a signal reused for many calls", async () => {
    const connection = shared;
    const ctx = context();
    for (let index = 0; index < 20; index++)
      await run(toolNamed(connection, "everything__echo"), { message: "x" }, ctx);
    expect(getEventListeners(ctx.signal, "abort").length).toBeLessThanOrEqual(1);
  });

  it("forwards progress notifications to onUpdate", async () => {
    const connection = shared;
    const updates: ToolResult[] = [];
    const result = await run(
      toolNamed(connection, "everything__trigger-long-running-operation"),
      { duration: 0.2, steps: 2 },
      context({ onUpdate: (partial) => updates.push(partial) }),
    );
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("Long running operation completed") });
    // The SDK handles the last progress notification after the response, so it may not arrive.
    expect(updates[0]?.content[0]).toEqual({ type: "text", text: "progress 1/2" });
    expect(updates[0]?.details).toEqual({ progress: { progress: 1, total: 2 } });
  });

  it("cancels the call when the context's signal aborts", async () => {
    const connection = shared;
    const controller = new AbortController();
    const pending = run(
      toolNamed(connection, "everything__trigger-long-running-operation"),
      { duration: 10, steps: 10 },
      context({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
    // the connection is still usable afterwards
    const sum = await run(toolNamed(connection, "everything__get-sum"), { a: 1, b: 1 });
    expect(sum.content[0]).toMatchObject({ text: "The sum of 1 and 1 is 2." });
  });
});

describe("connectMcpServer with server-everything (own connections)", () => {
  it("starts the server with the minimal environment, not the parent's", async () => {
    process.env.TOOLWIRE_TEST_SECRET = "do-not-leak";
    try {
      const connection = await connect(everythingServer());
      const result = await run(toolNamed(connection, "everything__get-env"), {});
      const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      const env = JSON.parse(text) as Record<string, string>;
      expect(env.PATH).toBe(process.env.PATH);
      expect(text).not.toContain("do-not-leak");
      expect(
        Object.keys(env).every((name) => ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM"].includes(name)),
      ).toBe(true);
    } finally {
      delete process.env.TOOLWIRE_TEST_SECRET;
    }
  });

  it("applies include and exclude filters to the server's tool names", async () => {
    const connection = await connect(everythingServer(), { include: ["get-*", "echo"], exclude: ["get-env"] });
    const names = connection.tools.map((tool) => tool.descriptor.executor);
    expect(
      names.every((ref) => ref?.kind === "mcp" && (ref.toolName.startsWith("get-") || ref.toolName === "echo")),
    ).toBe(true);
    expect(connection.tools.map((tool) => tool.descriptor.name)).not.toContain("everything__get-env");
    expect(connection.tools.map((tool) => tool.descriptor.name)).toContain("everything__echo");
  });

  it("takes a config entry's own include and exclude, and an option given to connectMcpServer wins over them", async () => {
    const entry = { ...everythingServer(), include: ["echo", "get-sum"], exclude: ["get-sum"] };
    const fromEntry = await connect(entry);
    expect(fromEntry.tools.map((tool) => tool.descriptor.name)).toEqual(["everything__echo"]);
    const overridden = await connect(entry, { exclude: [] });
    expect(overridden.tools.map((tool) => tool.descriptor.name).sort()).toEqual([
      "everything__echo",
      "everything__get-sum",
    ]);
  });

  it("resets the timeout on progress, so a slow call that reports progress finishes", async () => {
    const connection = await connect(everythingServer(), { timeoutMs: 400 });
    const result = await run(toolNamed(connection, "everything__trigger-long-running-operation"), {
      duration: 0.9,
      steps: 6,
    });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("completed") });
  });

  it("fails a call in flight promptly with an error naming the server when the process is killed, then reconnects", async () => {
    const connection = await connect(everythingServer("doomed"), { backoff: { initialDelayMs: 50 } });
    const registry = createToolRegistry({ extensions: [connection] });
    const session = createAgentSession({ registry });
    const pid = connection.pid as number;
    expect(pid).toBeGreaterThan(0);
    // The call would run 30 s, longer than the test's timeout: only a prompt failure lets the test pass.
    const inFlight = session.dispatch({
      id: "t1",
      name: "doomed__trigger-long-running-operation",
      input: { duration: 30, steps: 30 },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(pid, "SIGKILL");
    const result = await inFlight;
    expect(result.is_error).toBe(true);
    expect(result.content[0]).toMatchObject({ type: "text" });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    expect(text).toContain("MCP server doomed was killed by SIGKILL");
    expect(text).toContain("trigger-long-running-operation");
    expect(connection.connected).toBe(false);
    // the tool is still registered, and the next call starts a new server process
    expect(session.activeToolNames).toContain("doomed__get-sum");
    const next = await session.dispatch({ id: "t2", name: "doomed__get-sum", input: { a: 4, b: 5 } });
    expect(next).toEqual({
      type: "tool_result",
      tool_use_id: "t2",
      content: [{ type: "text", text: "The sum of 4 and 5 is 9." }],
    });
    expect(connection.connected).toBe(true);
    expect(connection.pid).not.toBe(pid);
  });
});
