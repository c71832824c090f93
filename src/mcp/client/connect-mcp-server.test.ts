import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { type MemoryMcpServer, memoryMcpServer } from "../../../test/support/memory-mcp-server.js";
import { ToolCallError } from "../../core/errors.js";
import type { AgentTool, ToolCallContext, ToolResult } from "../../core/types.js";
import { connectMcpEndpoint } from "./connect-mcp-server.js";
import { McpConnectionError } from "./errors.js";
import type { McpConnection, McpConnectOptions } from "./mcp-connection.js";

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connect(server: MemoryMcpServer, options: McpConnectOptions = {}): Promise<McpConnection> {
  const connection = await connectMcpEndpoint(server.endpoint, { backoff: { initialDelayMs: 10 }, ...options });
  open.push(connection);
  return connection;
}

function context(signal = new AbortController().signal): ToolCallContext {
  return { toolCallId: "c1", signal, onUpdate: () => {} };
}

function toolOf(connection: McpConnection, name = "mem__echo"): AgentTool {
  const tool = connection.tools.find((candidate) => candidate.descriptor.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

async function callError(tool: AgentTool, input = {}): Promise<ToolCallError> {
  const error = await tool.execute(input, context()).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return error as ToolCallError;
}

function textOf(result: ToolResult | string): string {
  if (typeof result === "string") return result;
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

/** Resolves once `condition` holds, checking after each turn of the event loop; rejects after 2 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 2_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`still not so after 2 s: ${condition.toString()}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("connectMcpEndpoint over an in-memory server", () => {
  it("connects, lists the server's tools and bridges them under the server's id", async () => {
    const server = memoryMcpServer({ tools: ["echo", "read.file"] });
    const connection = await connect(server);
    expect(connection.tools.map((tool) => tool.descriptor.name)).toEqual(["mem__echo", "mem__read-file"]);
    expect(connection.tools[1]?.descriptor.executor).toEqual({ kind: "mcp", serverId: "mem", toolName: "read.file" });
    expect(connection.serverInfo).toEqual({ name: "memory", version: "1.2.3" });
    expect(connection.protocol?.era).toBe("legacy");
    expect(connection.connected).toBe(true);
  });

  it("runs a call on the server and gives back its result", async () => {
    const connection = await connect(memoryMcpServer());
    expect(textOf(await toolOf(connection).execute({ text: "hi" }, context()))).toBe('{"text":"hi"}');
  });

  it("rejects the first connect with a typed error when the server refuses it, leaving nothing connected", async () => {
    const server = memoryMcpServer();
    server.refuseConnects(true);
    const error = await connectMcpEndpoint(server.endpoint).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ code: "mcp-connect-failed", serverId: "mem" });
  });

  it("fails a call in flight at once, naming the server, when the server goes away; the next call reconnects", async () => {
    const server = memoryMcpServer({
      onCall: async (_name, input, handle) => {
        if (input.leave !== true) return { content: [{ type: "text", text: JSON.stringify(input) }] };
        await handle.goAway();
        return new Promise(() => {}); // no answer: the server is gone
      },
    });
    const connection = await connect(server, { timeoutMs: 10_000 });
    const started = performance.now();
    const error = await callError(toolOf(connection), { leave: true });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe(
      "MCP server mem closed the connection, during the call to echo. The tool is still there: calling it again starts a new connection to mem.",
    );
    expect(connection.connected).toBe(false);

    expect(textOf(await toolOf(connection).execute({ again: true }, context()))).toBe('{"again":true}');
    expect(connection.connected).toBe(true);
    expect(server.servers).toHaveLength(2);
  });

  it("reports the lost connection to onError, once", async () => {
    const errors: McpConnectionError[] = [];
    const server = memoryMcpServer();
    const connection = await connect(server, { onError: (error) => errors.push(error) });
    await server.latest().goAway();
    expect(connection.connected).toBe(false);
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ["mcp-server-exited", "MCP server mem closed the connection"],
    ]);
  });

  it("re-lists exactly once more when list_changed arrives during a relist, however many arrive", async () => {
    const server = memoryMcpServer({ tools: ["echo"] });
    const connection = await connect(server);
    expect(server.listings).toBe(1);
    const changes: number[] = [];
    connection.onChange(() => changes.push(connection.tools.length));
    const held = server.holdListings(true);

    server.setTools(["echo", "add"]);
    await server.latest().server.sendToolListChanged();
    await until(() => held.length === 1); // the relist's first pass is at the server
    server.setTools(["echo", "add", "more"]);
    await server.latest().server.sendToolListChanged();
    await server.latest().server.sendToolListChanged();
    await new Promise((resolve) => setTimeout(resolve, 20)); // both notifications have arrived
    expect(held.length).toBe(1);

    held[0]?.release();
    await until(() => held.length === 2); // the one more pass
    // refreshTools waits for the running relist, then lists once itself: a third relist pass here would make it 5.
    const refreshed = connection.refreshTools();
    held[1]?.release();
    await until(() => held.length === 3);
    held[2]?.release();
    expect(await refreshed).toBe(false);
    expect(server.listings).toBe(4);
    expect(connection.tools.map((tool) => tool.descriptor.name)).toEqual(["mem__echo", "mem__add", "mem__more"]);
    expect(changes).toEqual([3]); // a held listing answers with the tools as they are at its release
  });

  it("close() during a reconnect closes the new connection and refuses the calls waiting on it", async () => {
    const server = memoryMcpServer();
    const connection = await connect(server);
    await server.latest().goAway();
    const held = server.holdListings(true);
    const waiting = callError(toolOf(connection));
    await until(() => held.length === 1); // the reconnect has opened and is listing
    const closing = connection.close();
    held[0]?.release();
    await closing;
    const error = await waiting;
    expect(error.message).toContain("MCP server mem is closed");
    expect(server.servers).toHaveLength(2);
    expect(server.latest().closed).toBe(true);
    expect(connection.connected).toBe(false);
  });

  it("refuses calls after close() with a typed error naming the server", async () => {
    const connection = await connect(memoryMcpServer());
    await connection.close();
    const error = await callError(toolOf(connection));
    expect(error).toMatchObject({ code: "execution-failed", toolName: "mem__echo" });
    expect(error.message).toBe("MCP server mem is closed: its connection was shut down");
  });

  it("fails a call in flight when close() is called, saying the server was closed", async () => {
    const connection = await connect(memoryMcpServer({ onCall: () => new Promise(() => {}) }));
    const waiting = callError(toolOf(connection));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await connection.close();
    expect((await waiting).message).toBe("MCP server mem was closed during the call to echo");
  });

  it("waits longer before each reconnect after consecutive failures, and starts over after a call succeeds", async () => {
    const server = memoryMcpServer();
    const connection = await connect(server, { backoff: { initialDelayMs: 40, maxDelayMs: 1_000 } });
    const tool = toolOf(connection);
    const lostAt = performance.now();
    await server.latest().goAway(); // failure 1
    server.refuseConnects(true);
    for (let attempt = 0; attempt < 3; attempt++) {
      const error = await callError(tool); // failures 2, 3, 4
      expect(error.message).toContain("Reconnecting to MCP server mem failed; a later call will try again.");
    }
    const [first, second, third] = server.connectTimes.slice(1);
    // 40 ms after the loss, then 80 and 160 ms after each failed reconnect. Timers run on the event loop's clock,
    // which lags performance.now() by up to a millisecond or so: a timer may seem to fire up to 2 ms early.
    expect((first as number) - lostAt).toBeGreaterThanOrEqual(38);
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(78);
    expect((third as number) - (second as number)).toBeGreaterThanOrEqual(158);

    server.refuseConnects(false);
    await tool.execute({}, context()); // waits 320 ms, reconnects and succeeds: the count starts over
    const lostAgainAt = performance.now();
    await server.latest().goAway();
    await tool.execute({}, context());
    const reconnectedAfter = (server.connectTimes.at(-1) as number) - lostAgainAt;
    expect(reconnectedAfter).toBeGreaterThanOrEqual(38);
    expect(reconnectedAfter).toBeLessThan(300);
  });

  it("fails an aborted call at once while reconnecting, and the reconnect's failure is no unhandled rejection", async () => {
    const server = memoryMcpServer();
    const connection = await connect(server);
    await server.latest().goAway();
    server.refuseConnects(true);
    const controller = new AbortController();
    controller.abort();
    const error = await toolOf(connection)
      .execute({}, context(controller.signal))
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toMatchObject({ code: "aborted" });
    await until(() => server.connectTimes.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the refused connect has failed
    expect(connection.connected).toBe(false);
  });

  it("cancels a call whose context reports its abort through onAbort, without reading the context's signal", async () => {
    let serverSignal: AbortSignal | undefined;
    const server = memoryMcpServer({
      onCall: (_name, _input, _server, signal) => {
        serverSignal = signal;
        return new Promise(() => {}); // answers only by being cancelled
      },
    });
    const connection = await connect(server);
    let abort: ((reason: unknown) => void) | undefined;
    const ctx: ToolCallContext = {
      toolCallId: "c1",
      get signal(): AbortSignal {
        throw new Error("the signal was read");
      },
      onUpdate: () => {},
      onAbort(listener) {
        abort = listener;
        return () => {
          abort = undefined;
        };
      },
    };
    const pending = toolOf(connection).execute({}, ctx);
    await until(() => serverSignal !== undefined);
    abort?.(new Error("stop"));
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
    await until(() => serverSignal?.aborted === true);
    expect(abort).toBeUndefined(); // the bridge stopped listening once the call settled
  });

  it("leaves no abort listeners on a signal reused for many calls", async () => {
    const connection = await connect(memoryMcpServer());
    const signal = new AbortController().signal;
    for (let index = 0; index < 20; index++) await toolOf(connection).execute({}, context(signal));
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
