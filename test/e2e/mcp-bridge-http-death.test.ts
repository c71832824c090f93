// A Streamable HTTP server that dies mid-call: the calls in flight fail within about a second, naming the server.
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentTool } from "../../src/core/types.js";
import { connectMcpServer, type McpProtocolChoice } from "../../src/mcp/api.js";
import { builtScript } from "./helpers/build.js";

const here = dirname(fileURLToPath(import.meta.url));
const dist = dirname(builtScript("dist/index.js"));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(here, "helpers/slow-http-server.mjs"), dist], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, url };
}

describe("an HTTP MCP server that dies during a call", () => {
  const cases: [McpProtocolChoice, NodeJS.Signals, string][] = [
    ["auto", "SIGKILL", "2026-07-28"],
    ["auto", "SIGTERM", "2026-07-28"],
    ["2025", "SIGKILL", "2025-11-25"],
    ["2025", "SIGTERM", "2025-11-25"],
  ];
  it.each(cases)(
    "protocol %s, %s: the call in flight fails within 2 s, naming the server",
    async (protocol, signal, version) => {
      const { child, url } = await startServer();
      const connection = await connectMcpServer({ id: "remote", url }, { protocol, onError: () => {} });
      try {
        expect(connection.protocol?.version).toBe(version);
        const slow = connection.tools[0] as AgentTool;
        const call = slow
          .execute({}, { toolCallId: "c1", signal: new AbortController().signal, onUpdate: () => {} })
          .then(
            () => new Error("the call answered"),
            (error: unknown) => error as Error,
          );
        await new Promise((resolve) => setTimeout(resolve, 200)); // the call is on the wire
        const killedAt = performance.now();
        child.kill(signal);
        const error = await call;
        expect(performance.now() - killedAt).toBeLessThan(2_000);
        expect(error.message).toMatch(/^MCP server remote could not be reached .*during the call to slow/);
        expect(connection.connected).toBe(false);
      } finally {
        await connection.close();
      }
    },
  );
});
