// Configs for the real MCP servers the end-to-end tests start, and small fake servers written to a temp folder.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { McpStdioServerConfig } from "../../../src/mcp/index.js";

const require = createRequire(import.meta.url);

function packageBin(name: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), "dist", "index.js");
}

/** The minimal environment the tests start servers with. */
export function minimalEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "" };
}

/** server-everything over stdio. */
export function everythingServer(id = "everything"): McpStdioServerConfig {
  return {
    id,
    command: process.execPath,
    args: [packageBin("@modelcontextprotocol/server-everything"), "stdio"],
    env: minimalEnv(),
  };
}

/** server-filesystem over stdio, allowed to touch `root` only. */
export function filesystemServer(root: string, id = "fs"): McpStdioServerConfig {
  return {
    id,
    command: process.execPath,
    args: [packageBin("@modelcontextprotocol/server-filesystem"), root],
    env: minimalEnv(),
    cwd: root,
  };
}

/** A temp folder, removed by the returned function. */
export async function tempFolder(prefix = "toolwire-mcp-"): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Writes a node script into `folder` and returns a stdio config that runs it. */
export async function scriptServer(folder: string, id: string, source: string): Promise<McpStdioServerConfig> {
  const file = join(folder, `${id}.mjs`);
  await writeFile(file, source);
  return { id, command: process.execPath, args: [file], env: minimalEnv() };
}

/**
 * A fake MCP server in plain node (no SDK): answers the handshake and tools/list with one tool
 * `ping`; `behaviour` decides what a `tools/call` gets.
 */
export function fakeServerSource(behaviour: "unknown-tool-protocol-error" | "hang-on-call" | "exit-on-call"): string {
  return `
import { createInterface } from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "fake", version: "1.0.0" } } });
  } else if (message.method === "tools/list") {
    send({ id: message.id, result: { tools: [{ name: "ping", description: "Answers pong", inputSchema: { type: "object", properties: {} } }] } });
  } else if (message.method === "tools/call") {
    const behaviour = ${JSON.stringify(behaviour)};
    if (behaviour === "hang-on-call") return;
    if (behaviour === "exit-on-call") process.exit(3);
    send({ id: message.id, error: { code: -32602, message: "Tool " + message.params.name + " not found" } });
  } else {
    send({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});
`;
}
