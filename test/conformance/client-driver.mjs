#!/usr/bin/env node
// The MCP client under test for the conformance suite's client scenarios: toolwire's bridge (connectMcpServer from dist/).
// The suite runs `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO set; this connects through the bridge, lists the
// server's tools and calls them through a session, as an agent would. Exit 0 when every call succeeded.
// For auth/* scenarios it uses toolwire's OAuth providers: the suite plays the authorization server and approves at
// once, so the "browser" here is a fetch of the authorization URL that follows the redirect to the loopback listener.
import { createAgentSession, createToolRegistry } from "../../dist/index.js";
import {
  connectMcpServer,
  createMcpClientCredentialsProvider,
  createMcpOAuthProvider,
  createMemoryOAuthStore,
} from "../../dist/mcp/index.js";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
/** What the suite hands a client for some scenarios: pre-registered client credentials, a private key. */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
/** The client ID metadata document URL the suite's CIMD scenarios expect. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * What to call, per scenario: the server's own tool name and its input (or a function of the bridged tools giving it).
 * Scenarios not named call what the suite's context lists in `toolCalls`, or only connect and list.
 */
const CALLS = {
  tools_call: [{ tool: "add_numbers", input: { a: 5, b: 3 } }],
  "sse-retry": [{ tool: "test_reconnection", input: {} }],
  // tools/call needs a wider scope than listing: the call steps the authorization up.
  "auth/scope-step-up": [{ tool: "test-tool", input: {} }],
  // Sends back the input schema the bridge offers for the focal tool, as it offers it: the suite diffs it with its own.
  "json-schema-2020-12-preservation": [
    {
      tool: "json_schema_echo",
      input: (tools) => ({ schema: tools.find((t) => t.toolName === "json_schema_2020_12_tool")?.inputSchema ?? {} }),
    },
  ],
  // The server asks through elicitation; the "person" accepts and the bridge fills in the form's defaults.
  "elicitation-sep1034-client-defaults": [{ tool: "test_client_elicitation_defaults", input: {} }],
};
/**
 * Scenarios whose server expects a call of every tool the client kept: tools with malformed x-mcp-header declarations
 * must be left out, and each MRTR tool answers with input_required first (the client must send the state back).
 */
const CALL_EVERY_TOOL = ["http-invalid-tool-headers", "sep-2322-client-request-state"];
/** A value of each type, for an input that satisfies a tool's required properties. */
const SAMPLE = { string: "us-west1", number: 1, integer: 1, boolean: true, object: {}, array: [] };

/** An input with a sample value for each required property of `schema`, so that the call reaches the server. */
function sampleInput(schema) {
  const input = {};
  for (const name of schema?.required ?? []) input[name] = SAMPLE[schema.properties?.[name]?.type] ?? "x";
  return input;
}

/** The calls to make in this scenario, given the bridged tools (`{ name, toolName, inputSchema }`). */
function callsFor(tools) {
  if (CALLS[scenario] !== undefined) return CALLS[scenario];
  if (CALL_EVERY_TOOL.includes(scenario))
    return tools.map((t) => ({ tool: t.toolName, input: sampleInput(t.inputSchema) }));
  return (context.toolCalls ?? []).map((call) => ({ tool: call.name, input: call.arguments ?? {} }));
}

/** The auth provider for a scenario: client credentials when the suite gives them, else a login. */
function authProviderFor() {
  if (!scenario.startsWith("auth/")) return undefined;
  if (scenario.startsWith("auth/client-credentials-")) {
    return createMcpClientCredentialsProvider({
      clientId: context.client_id,
      ...(context.private_key_pem === undefined
        ? { clientSecret: context.client_secret }
        : { privateKey: context.private_key_pem, algorithm: context.signing_algorithm }),
    });
  }
  return createMcpOAuthProvider({
    serverUrl: url,
    store: createMemoryOAuthStore(),
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(context.client_id === undefined ? {} : { clientId: context.client_id }),
    ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
    authorization: {
      kind: "loopback",
      timeoutMs: 20_000,
      onAuthorizationUrl: async (authorizationUrl) => {
        console.log(`${scenario}: authorizing at ${authorizationUrl.origin}${authorizationUrl.pathname}`);
        await fetch(authorizationUrl);
      },
    },
  });
}

async function main() {
  if (url === undefined)
    throw new Error("usage: client-driver.mjs <server-url> (MCP_CONFORMANCE_SCENARIO names the scenario)");
  const connection = await connectMcpServer(
    { id: "conformance", url },
    {
      // The suite runs a group's scenarios in parallel, each a process of its own: on a busy 2-core machine a login
      // and handshake took more than 10 s, and more than 30 s under a load average of 30. The suite gives each
      // scenario 120 s.
      connectTimeoutMs: 90_000,
      timeoutMs: 90_000,
      backoff: { initialDelayMs: 100, maxDelayMs: 500 },
      ...(scenario.startsWith("auth/") ? { authProvider: authProviderFor() } : {}),
      onElicitation: () => ({ action: "accept" }),
    },
  );
  let failed = false;
  try {
    const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
    console.log(`${scenario}: tools ${connection.tools.map((tool) => tool.descriptor.name).join(", ") || "(none)"}`);
    const tools = connection.tools.map(({ descriptor }) => ({
      name: descriptor.name,
      toolName: descriptor.executor?.toolName,
      inputSchema: descriptor.inputSchema,
    }));
    for (const [index, { tool, input }] of callsFor(tools).entries()) {
      const name = tools.find((candidate) => candidate.toolName === tool)?.name;
      if (name === undefined) {
        console.log(`${scenario}: the server lists no tool ${tool}`);
        failed = true;
        continue;
      }
      const result = await session.dispatch({
        id: `call-${index + 1}`,
        name,
        input: typeof input === "function" ? input(tools) : input,
      });
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
