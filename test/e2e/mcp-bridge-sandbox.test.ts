// The client bridge starting an untrusted stdio server in bubblewrap: it sees only what it is given.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServer, McpConnectionError } from "../../src/mcp/api.js";
import { BWRAP_VARIABLE, detectSandbox } from "../../src/sandbox/detect-sandbox.js";
import { scriptServer, tempFolder } from "./helpers/mcp-servers.js";

const support = await detectSandbox();
// CI installs bubblewrap (.ci/run): there these tests must run.
const runs = support.usable || process.env.CI === "true";

/** A server with one tool, `probe`, that tries to write outside and inside its folder, read a file, and connect to a port. */
const PROBE_SOURCE = `import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
const attempt = (run) => { try { run(); return "ok"; } catch (error) { return error.code ?? error.message; } };
const reach = (port) => new Promise((resolve) => {
  const socket = connect(port, "127.0.0.1");
  socket.once("connect", () => { socket.destroy(); resolve("connected"); });
  socket.once("error", (error) => resolve(error.code));
});
let buffer = "";
process.stdin.on("data", async (chunk) => {
  buffer += chunk;
  let index;
  while ((index = buffer.indexOf("\\n")) >= 0) {
    const message = JSON.parse(buffer.slice(0, index));
    buffer = buffer.slice(index + 1);
    if (message.method === "initialize") {
      send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "probe", version: "1.0.0" } } });
    } else if (message.method === "tools/list") {
      send({ id: message.id, result: { tools: [{ name: "probe", inputSchema: { type: "object" } }] } });
    } else if (message.method === "tools/call") {
      const a = message.params.arguments;
      const report = {
        outside: attempt(() => writeFileSync(a.outside, "x")),
        inside: attempt(() => writeFileSync(a.inside, "x")),
        denied: attempt(() => readFileSync(a.denied, "utf8")),
        cwd: process.cwd(),
        port: await reach(a.port),
      };
      send({ id: message.id, result: { content: [{ type: "text", text: JSON.stringify(report) }] } });
    }
  }
});
`;

describe.skipIf(!runs)("a sandboxed stdio MCP server", { timeout: 30_000 }, () => {
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let outside: string;
  let listener: Server;
  let port: number;
  beforeAll(async () => {
    folder = await tempFolder();
    outside = await mkdtemp("/var/tmp/toolwire-mcp-outside-");
    await writeFile(join(outside, "secret.txt"), "secret");
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await folder.remove();
    await rm(outside, { recursive: true, force: true });
    await new Promise((resolve) => listener.close(resolve));
  });

  it("writes only into its folder, cannot read a denied file, and cannot reach the host's loopback", async () => {
    const server = await scriptServer(folder.path, "probe", PROBE_SOURCE);
    const connection = await connectMcpServer({
      ...server,
      cwd: folder.path,
      sandbox: { mode: "required", denyRead: [join(outside, "secret.txt")] },
    });
    try {
      const probe = connection.tools.find((tool) => tool.descriptor.name === "probe__probe");
      const result = await probe?.execute(
        {
          outside: join(outside, "planted"),
          inside: join(folder.path, "made"),
          denied: join(outside, "secret.txt"),
          port,
        },
        { toolCallId: "1", signal: new AbortController().signal, onUpdate: () => undefined },
      );
      const block = typeof result === "object" ? result.content[0] : undefined;
      const text = block?.type === "text" ? block.text : String(result);
      expect(JSON.parse(text)).toEqual({
        outside: "EROFS",
        inside: "ok",
        denied: "EACCES",
        cwd: folder.path,
        port: "ECONNREFUSED",
      });
      expect(existsSync(join(outside, "planted"))).toBe(false);
      expect(readFileSync(join(folder.path, "made"), "utf8")).toBe("x");
    } finally {
      await connection.close();
    }
  });

  it('is not started unsandboxed when its sandbox is "required" and bubblewrap is not usable', async () => {
    const saved = process.env[BWRAP_VARIABLE];
    process.env[BWRAP_VARIABLE] = "none";
    try {
      const server = await scriptServer(folder.path, "probe2", PROBE_SOURCE);
      const error = await connectMcpServer({ ...server, sandbox: { mode: "required" } }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(McpConnectionError);
      expect(error).toMatchObject({ code: "mcp-connect-failed", serverId: "probe2" });
      expect((error as Error).message).toContain("(sandbox-unavailable)");
    } finally {
      if (saved === undefined) delete process.env[BWRAP_VARIABLE];
      else process.env[BWRAP_VARIABLE] = saved;
    }
  });

  it("refuses sandbox options of the wrong shape as invalid-mcp-config", async () => {
    const error = await connectMcpServer({ id: "bad", command: "x", sandbox: { mode: "always" } as never }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({
      code: "invalid-mcp-config",
      message: 'MCP server bad: sandbox.mode must be "auto" or "required", got "always"',
    });
  });
});
