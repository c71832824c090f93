import { describe, expect, it } from "vitest";
import { ChildProcessTransport, minimalEnvironment } from "./child-process-transport.js";
import type { McpConnectionError } from "./errors.js";

function transportFor(source: string, serverId = "t"): ChildProcessTransport {
  return new ChildProcessTransport({ serverId, command: process.execPath, args: ["-e", source] });
}

function closedWith(transport: ChildProcessTransport): Promise<McpConnectionError | undefined> {
  return new Promise((resolve) => {
    transport.onclose = () => resolve(transport.closeReason);
  });
}

describe("minimalEnvironment", () => {
  it("keeps only the few variables a server needs from the parent", () => {
    process.env.TOOLWIRE_UNIT_SECRET = "x";
    try {
      const env = minimalEnvironment();
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.TOOLWIRE_UNIT_SECRET).toBeUndefined();
      expect(
        Object.keys(env).every((name) => ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"].includes(name)),
      ).toBe(true);
    } finally {
      delete process.env.TOOLWIRE_UNIT_SECRET;
    }
  });
});

describe("ChildProcessTransport", () => {
  it("passes JSON-RPC lines through and says how the process ended", async () => {
    const transport = transportFor(
      `process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/hello" }) + "\\n"); process.stderr.write("bye\\n"); setTimeout(() => process.exit(4), 50);`,
    );
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    const closed = closedWith(transport);
    await transport.start();
    const reason = await closed;
    expect(messages).toEqual([{ jsonrpc: "2.0", method: "notifications/hello" }]);
    expect(reason).toMatchObject({ code: "mcp-server-exited", serverId: "t" });
    expect(reason?.message).toBe('MCP server t exited with code 4; its stderr ended with: "bye"');
  });

  it("names the signal that killed the process", async () => {
    const transport = transportFor("setInterval(() => {}, 1000);");
    const closed = closedWith(transport);
    await transport.start();
    process.kill(transport.pid as number, "SIGKILL");
    expect((await closed)?.message).toBe("MCP server t was killed by SIGKILL");
  });

  it("closes with a protocol error on a line that is not JSON-RPC, and send then rejects with it", async () => {
    const transport = transportFor(`process.stdout.write("hello\\n"); setInterval(() => {}, 1000);`, "noisy");
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const closed = closedWith(transport);
    await transport.start();
    const reason = await closed;
    expect(reason).toMatchObject({ code: "mcp-protocol-error", serverId: "noisy" });
    expect(reason?.message).toBe(
      'MCP server noisy broke the protocol: it wrote something that is not JSON-RPC on stdout: "hello"',
    );
    expect(errors).toEqual([reason]);
    await expect(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 })).rejects.toBe(reason);
  });

  it("rejects start for a command that does not exist", async () => {
    const transport = new ChildProcessTransport({ serverId: "ghost", command: "toolwire-no-such-command-xyz" });
    await expect(transport.start()).rejects.toMatchObject({ code: "mcp-connect-failed", serverId: "ghost" });
  });

  it("stops a server that ignores stdin closing", async () => {
    const transport = transportFor(
      `process.on("SIGTERM", () => {}); process.stdin.resume(); setInterval(() => {}, 1000);`,
    );
    await transport.start();
    const pid = transport.pid as number;
    await transport.close();
    expect(transport.closeReason?.code).toBe("mcp-closed");
    expect(() => process.kill(pid, 0)).toThrow(); // the process is gone
  });
});
