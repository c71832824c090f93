// The MCP bridge's slot: server-everything's echo through connectMcpServer against client.callTool direct, of the 1.x SDK and of the v2 client the bridge is built on.
import { createRequire } from "node:module";
import path from "node:path";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createAgentSession, createToolRegistry } from "../../dist/index.js";
import { connectMcpServer } from "../../dist/mcp/index.js";
import { packageVersion } from "../lib/package-version.js";

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
/** The minimal environment the servers get, as in the end-to-end tests. */
const ENV = { PATH: process.env.PATH ?? "" };
const SERVER_ID = "gw";
const BRIDGED_NAME = `${SERVER_ID}__echo`;
const INPUT = { message: "hello" };
const EXPECTED = "Echo: hello";

/** Everything this process started, closed by `close()`. */
const open = [];

function stdioConfig() {
  return { id: SERVER_ID, command: process.execPath, args: [EVERYTHING, "stdio"], env: ENV };
}

async function directClient() {
  const client = new Client({ name: "toolwire-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], env: ENV, stderr: "ignore" }),
  );
  open.push(client);
  return client;
}

/** The v2 client (`@modelcontextprotocol/client`), the one the bridge speaks through, over its own stdio transport. */
async function directClientV2() {
  const client = new ClientV2({ name: "toolwire-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransportV2({ command: process.execPath, args: [EVERYTHING, "stdio"], env: ENV, stderr: "ignore" }),
  );
  open.push(client);
  return client;
}

async function bridge() {
  const connection = await connectMcpServer(stdioConfig());
  open.push(connection);
  return connection;
}

function textOf(content) {
  return Array.isArray(content) ? content.map((block) => (block.type === "text" ? block.text : "")).join("") : content;
}

function expectEcho(text, isError) {
  if (isError) return `an error result: ${text}`;
  return text === EXPECTED ? undefined : `got ${JSON.stringify(text)}, expected ${JSON.stringify(EXPECTED)}`;
}

/**
 * The MCP cases: echo through the bridge (`tool.execute`, and `session.dispatch` of the bridged tool)
 * and `client.callTool` direct, each on its own server-everything process over stdio (a process that has
 * just answered answers faster, so paths sharing one would favour whichever ran last). Each toolwire case
 * has a direct case of the same variant, on its own process too: library `mcp-sdk` is the 1.x SDK's
 * client, `mcp-sdk-v2` the v2 client the bridge is built on (its `callTool` costs more than the 1.x one's).
 */
export async function createCases() {
  // allSettled: when one start fails, the others have still been pushed to `open` before close() runs.
  const started = await Promise.allSettled([
    bridge(),
    bridge(),
    directClient(),
    directClient(),
    directClientV2(),
    directClientV2(),
  ]);
  const failed = started.find((each) => each.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  const [executeConnection, dispatchConnection, directForExecute, directForDispatch, v2ForExecute, v2ForDispatch] =
    started.map((each) => each.value);
  const tool = executeConnection.tools.find((candidate) => candidate.descriptor.name === BRIDGED_NAME);
  if (tool === undefined) throw new Error(`the bridge lists no ${BRIDGED_NAME}`);
  const session = createAgentSession({ registry: createToolRegistry({ extensions: [dispatchConnection] }) });
  open.push(session);
  if (!session.activeToolNames.includes(BRIDGED_NAME)) throw new Error(`the session has no ${BRIDGED_NAME}`);
  let id = 0;
  const direct = (client) => () => client.callTool({ name: "echo", arguments: INPUT });
  const checkDirect = (result) => expectEcho(textOf(result?.content), result?.isError === true);
  return [
    {
      group: "mcp",
      library: "toolwire",
      variant: "echo, tool.execute",
      n: 1,
      // A fresh context per call, as the session gives every call.
      run: () => tool.execute(INPUT, { toolCallId: "bench", signal: new AbortController().signal, onUpdate() {} }),
      check: (result) =>
        typeof result === "string" ? expectEcho(result, false) : expectEcho(textOf(result?.content), result?.isError),
    },
    {
      group: "mcp",
      library: "mcp-sdk",
      variant: "echo, tool.execute",
      n: 1,
      run: direct(directForExecute),
      check: checkDirect,
    },
    {
      group: "mcp",
      library: "mcp-sdk-v2",
      variant: "echo, tool.execute",
      n: 1,
      run: direct(v2ForExecute),
      check: checkDirect,
    },
    {
      group: "mcp",
      library: "toolwire",
      variant: "echo, session.dispatch",
      n: 1,
      run: () => session.dispatch({ id: `b${++id}`, name: BRIDGED_NAME, input: INPUT }),
      check: (result) => expectEcho(textOf(result?.content), result?.is_error === true),
    },
    {
      group: "mcp",
      library: "mcp-sdk",
      variant: "echo, session.dispatch",
      n: 1,
      run: direct(directForDispatch),
      check: checkDirect,
    },
    {
      group: "mcp",
      library: "mcp-sdk-v2",
      variant: "echo, session.dispatch",
      n: 1,
      run: direct(v2ForDispatch),
      check: checkDirect,
    },
  ];
}

/** Closes the sessions, bridged connections and clients (and so stops every server process this module started). */
export async function close() {
  const closing = open.splice(0).reverse();
  await Promise.allSettled(closing.map(async (each) => each.close()));
}

/** What this process's cases were built with. */
export function describe() {
  return {
    library: "mcp-bridge",
    version: `@modelcontextprotocol/sdk@${packageVersion("@modelcontextprotocol/sdk")}, @modelcontextprotocol/client@${packageVersion("@modelcontextprotocol/client")}, @modelcontextprotocol/server-everything@${packageVersion("@modelcontextprotocol/server-everything")}`,
  };
}
