// One server process of the gateway benchmark: argv <bare | toolwire> <audit file> [calls per minute per principal]
// [dist folder of the build to serve, default this one's].
// Prints its URL on stdout.
// bare: the SDK's own stateless 2026-07-28 handler over one no-op tool, no auth. toolwire: serveMcp with auth,
// a session per principal, a rate limit and the audit log on, over the same no-op tool.
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";

const [kind, auditFile, callsPerMinute = "1000000000", dist] = process.argv.slice(2);
const from = (path) =>
  dist === undefined ? new URL(`../../dist/${path}`, import.meta.url) : pathToFileURL(join(dist, path));
const { createAgentSession, createToolRegistry, defineTool } = await import(from("index.js"));
const { serveMcp } = await import(from("mcp/index.js"));
const NO_INPUT = { type: "object", properties: {} };

if (kind === "bare") {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: "bare", version: "1" });
      server.registerTool("noop", { description: "Does nothing" }, async () => ({
        content: [{ type: "text", text: "ok" }],
      }));
      return server;
    },
    { legacy: "reject" },
  );
  const serve = toNodeHandler(handler);
  const http = createServer((request, response) => void serve(request, response));
  http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${http.address().port}/mcp`));
} else {
  const noop = defineTool({ name: "noop", description: "Does nothing", inputSchema: NO_INPUT, execute: () => "ok" });
  const handle = await serveMcp(() => createAgentSession({ registry: createToolRegistry({ custom: [noop] }) }), {
    transport: "http",
    port: 0,
    auth: {
      tokens: [
        { token: "bench-token-0123456789", principal: "bench" },
        { token: "flood-token-0123456789", principal: "flood" },
      ],
    },
    rateLimit: { callsPerMinute: Number(callsPerMinute) },
    audit: { file: auditFile },
  });
  console.log(handle.url);
  for (const signal of ["SIGTERM", "SIGINT"])
    process.once(signal, () => void handle.close().then(() => process.exit(0)));
}
