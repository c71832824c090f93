// The peer of `toolwire serve` in the cold-start benchmark: an MCP SDK stdio server written as its docs show, serving
// the tools listed in the JSON file argv[2] (name, description, inputSchema: the same set toolwire serves).
import { readFileSync } from "node:fs";
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
serveStdio(() => {
  const server = new McpServer({ name: "sdk-peer", version: "1.0.0" }, { capabilities: { tools: {} } });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: fromJsonSchema(tool.inputSchema) },
      async () => ({ content: [{ type: "text", text: "ok" }] }),
    );
  }
  return server;
});
