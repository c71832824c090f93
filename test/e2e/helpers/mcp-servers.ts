// Configs for the real MCP servers the end-to-end tests start, and small fake servers written to a temp folder.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { McpStdioServerConfig } from "../../../src/mcp/api.js";

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

/** server-memory over stdio, its knowledge graph in `file`. */
export function memoryServer(file: string, id = "memory"): McpStdioServerConfig {
  return {
    id,
    command: process.execPath,
    args: [packageBin("@modelcontextprotocol/server-memory")],
    env: { ...minimalEnv(), MEMORY_FILE_PATH: file },
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

/** What a fake server does with a `tools/call`. */
export type FakeBehaviour =
  | "pong" // answers "pong"
  | "protocol-error-on-call" // answers a JSON-RPC error instead of an isError result
  | "hang-on-call" // never answers
  | "exit-on-call" // exits with code 3
  | "garbage-on-call" // writes a line that is not JSON-RPC
  | "dynamic" // `add` adds a tool, `remove` removes the last one; each sends tools/list_changed
  | "paged" // lists `ping`, `read.file`, `read-file` one per page; a call answers "called <name>"
  | "looping-cursor" // tools/list always answers the same nextCursor
  | "broken-listing" // lists ping, a tool whose inputSchema is a string, an entry without a name, and `later`
  | "exit-before-initialize" // exits on any request before initialize, as servers on some SDKs do
  | "logs-on-call" // a call sends a warning log message before its result
  | "structured"; // `weather` has an outputSchema; its call answers structuredContent as `mode` says: good, bad, none

/**
 * A fake MCP server in plain node (no SDK), so a test controls every byte: answers the handshake
 * and tools/list (tools `ping`, plus `add` and `remove` when dynamic); `behaviour` decides the rest.
 */
export function fakeServerSource(behaviour: FakeBehaviour): string {
  return `
import { createInterface } from "node:readline";
const behaviour = ${JSON.stringify(behaviour)};
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
const tool = (name) => ({ name, description: "Tool " + name, inputSchema: { type: "object", properties: {} } });
const tools =
  behaviour === "dynamic" ? [tool("ping"), tool("add"), tool("remove")]
  : behaviour === "paged" ? [tool("ping"), tool("read.file"), tool("read-file")]
  : behaviour === "broken-listing" ? [tool("ping"), { name: "broken", inputSchema: "oops" }, { description: "no name" }, tool("later")]
  : behaviour === "structured" ? [{ ...tool("weather"), outputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] }, icons: [{ src: "https://example.com/sun.png", mimeType: "image/png" }], _meta: { "example.com/owner": "weather-team" } }]
  : [tool("ping")];
let added = 0;
let initialized = false;
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (behaviour === "exit-before-initialize" && !initialized && message.method !== "initialize") process.exit(1);
  if (message.method === "initialize") initialized = true;
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: "fake", version: "1.0.0" } } });
  } else if (message.method === "tools/list") {
    if (behaviour === "looping-cursor") return send({ id: message.id, result: { tools, nextCursor: "again" } });
    if (behaviour !== "paged") return send({ id: message.id, result: { tools } });
    const index = Number(message.params?.cursor ?? 0);
    const nextCursor = index + 1 < tools.length ? String(index + 1) : undefined;
    send({ id: message.id, result: { tools: [tools[index]], ...(nextCursor ? { nextCursor } : {}) } });
  } else if (message.method === "tools/call") {
    const name = message.params.name;
    if (behaviour === "hang-on-call") return;
    if (behaviour === "exit-on-call") process.exit(3);
    if (behaviour === "garbage-on-call") return void process.stdout.write("debug: this is not JSON\\n");
    if (behaviour === "paged") return send({ id: message.id, result: { content: [{ type: "text", text: "called " + name }] } });
    if (behaviour === "protocol-error-on-call") return send({ id: message.id, error: { code: -32602, message: "Tool " + name + " not found" } });
    if (behaviour === "logs-on-call") {
      send({ method: "notifications/message", params: { level: "warning", logger: "fake", data: { disk: "low" } } });
      return send({ id: message.id, result: { content: [{ type: "text", text: "logged" }] } });
    }
    if (behaviour === "structured") {
      const mode = message.params.arguments?.mode;
      const structuredContent = mode === "good" ? { celsius: 21 } : mode === "bad" ? { celsius: "warm" } : undefined;
      return send({ id: message.id, result: { content: [{ type: "text", text: "weather" }], ...(structuredContent ? { structuredContent } : {}) } });
    }
    if (name === "add") tools.push(tool("added-" + ++added));
    if (name === "remove") tools.pop();
    if (name === "add" || name === "remove") send({ method: "notifications/tools/list_changed" });
    send({ id: message.id, result: { content: [{ type: "text", text: name === "ping" ? "pong" : "ok" }] } });
  } else {
    send({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});
`;
}

/** A server that writes to stderr and exits at once. */
export const EXIT_AT_START_SOURCE = `process.stderr.write("fatal: missing config file\\n"); process.exit(2);`;
/** A server that writes a line of garbage to stdout and stays up. */
export const GARBAGE_AT_START_SOURCE = `process.stdout.write("Server starting on stdio...\\n"); setInterval(() => {}, 1000);`;
/** A server that reads its input and never answers. */
export const SILENT_SOURCE = `process.stdin.on("data", () => {}); setInterval(() => {}, 1000);`;

/** A server that works the first time it starts (exiting on its first call) and exits at once on every later start. */
export function onceOnlySource(markerFile: string): string {
  return `
import { existsSync, writeFileSync } from "node:fs";
const marker = ${JSON.stringify(markerFile)};
if (existsSync(marker)) { process.stderr.write("refusing to start twice\\n"); process.exit(1); }
writeFileSync(marker, "started");
${fakeServerSource("exit-on-call")}`;
}
