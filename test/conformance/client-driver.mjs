#!/usr/bin/env node
// The MCP client under test for the conformance suite's client scenarios: toolwire's bridge (connectMcpServer from dist/).
// The suite runs `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO set; this connects through the bridge, lists the
// server's tools and calls them through a session, as an agent would. Exit 0 when every call succeeded.
import { createAgentSession, createToolRegistry } from "../../dist/index.js";
import { connectMcpServer } from "../../dist/mcp/index.js";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";

/** What to call, per scenario: the server's own tool name and its input. Scenarios not named only connect and list. */
const CALLS = {
  tools_call: [{ tool: "add_numbers", input: { a: 5, b: 3 } }],
  "sse-retry": [{ tool: "test_reconnection", input: {} }],
};

async function main() {
  if (url === undefined)
    throw new Error("usage: client-driver.mjs <server-url> (MCP_CONFORMANCE_SCENARIO names the scenario)");
  const connection = await connectMcpServer(
    { id: "conformance", url },
    { connectTimeoutMs: 10_000, timeoutMs: 10_000, backoff: { initialDelayMs: 100, maxDelayMs: 500 } },
  );
  let failed = false;
  try {
    const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
    console.log(`${scenario}: tools ${connection.tools.map((tool) => tool.descriptor.name).join(", ") || "(none)"}`);
    for (const [index, { tool, input }] of (CALLS[scenario] ?? []).entries()) {
      const name = connection.tools.find((candidate) => candidate.descriptor.executor?.toolName === tool)?.descriptor
        .name;
      if (name === undefined) {
        console.log(`${scenario}: the server lists no tool ${tool}`);
        failed = true;
        continue;
      }
      const result = await session.dispatch({ id: `call-${index + 1}`, name, input });
      const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ");
      console.log(`${scenario}: ${name} -> ${result.is_error === true ? "error: " : ""}${text}`);
      if (result.is_error === true) failed = true;
    }
  } finally {
    await connection.close();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(`${scenario}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
