// A toolwire MCP server over HTTP in its own process, with one tool that answers after 20 s, for tests that kill it.
// argv: <dist folder>. Prints its URL on stdout.
import { pathToFileURL } from "node:url";

const [dist] = process.argv.slice(2);
const { createAgentSession, createToolRegistry, defineTool } = await import(pathToFileURL(`${dist}/index.js`).href);
const { serveMcp } = await import(pathToFileURL(`${dist}/mcp/index.js`).href);
const slow = defineTool({
  name: "slow",
  description: "Answers after 20 seconds",
  inputSchema: { type: "object", properties: {} },
  execute: () => new Promise((resolve) => setTimeout(() => resolve("late"), 20_000)),
});
const handle = await serveMcp(createAgentSession({ registry: createToolRegistry({ custom: [slow] }) }), {
  transport: "http",
  port: 0,
});
process.stdout.write(`${handle.url}\n`);
