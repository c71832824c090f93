// A real MCP server over stdio (plain node, no SDK) whose tools/list answers the tools in a JSON file, read anew at
// every listing: a test changes a tool's definition by writing the file, then calls `notify` for tools/list_changed.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { McpStdioServerConfig } from "../../src/mcp/api.js";

/** A tool as the server lists it. */
export type ListedTool = { readonly name: string } & Readonly<Record<string, unknown>>;

/** The server's source: every listing is `notify` and the file's tools; a call of `notify` sends list_changed. */
function listingFileServerSource(listingFile: string): string {
  return `
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
const file = ${JSON.stringify(listingFile)};
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
const notify = { name: "notify", description: "Sends tools/list_changed.", inputSchema: { type: "object" } };
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: "listing-file", version: "1.0.0" } } });
  } else if (message.method === "tools/list") {
    send({ id: message.id, result: { tools: [notify, ...JSON.parse(readFileSync(file, "utf8"))] } });
  } else if (message.method === "tools/call") {
    const name = message.params.name;
    if (name === "notify") send({ method: "notifications/tools/list_changed" });
    send({ id: message.id, result: { content: [{ type: "text", text: "called " + name }] } });
  } else {
    send({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});
`;
}

/** A listing-file server in `folder`: its stdio config, and `list(tools)` to change what it lists next. */
export async function listingFileServer(
  folder: string,
  id: string,
  tools: readonly ListedTool[],
): Promise<{ readonly config: McpStdioServerConfig; list(tools: readonly ListedTool[]): Promise<void> }> {
  const listingFile = join(folder, `${id}.tools.json`);
  const script = join(folder, `${id}.mjs`);
  const list = (next: readonly ListedTool[]) => writeFile(listingFile, JSON.stringify(next));
  await list(tools);
  await writeFile(script, listingFileServerSource(listingFile));
  return { config: { id, command: process.execPath, args: [script], env: { PATH: process.env.PATH ?? "" } }, list };
}
