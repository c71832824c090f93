// The benchmark's processes, in the order the orchestrator runs them, and the peer modules each one loads.

/** Process name to the modules under `bench/peers/` it loads; the last one is the one measured. */
export const PROCESSES = {
  toolwire: ["toolwire"],
  "ai-sdk": ["ai-sdk"],
  "openai-agents": ["openai-agents"],
  pi: ["pi"],
  langchain: ["langchain"],
  // toolwire measured after every peer has run once in the same process (their async hooks installed).
  "toolwire-with-peers": ["ai-sdk", "openai-agents", "pi", "langchain", "toolwire"],
};

/**
 * The MCP bridge's slot: a module `bench/peers/mcp-bridge.js` exporting `createCases()` (cases in
 * group "mcp": library "toolwire" through the bridge, "mcp-sdk" (1.x) and "mcp-sdk-v2" for `client.callTool` direct,
 * same server, same process) and `describe()`; `createCases` may be async (it starts the servers) and an
 * optional `close()` stops them after the run. The orchestrator runs it when the file exists.
 */
export const MCP_BRIDGE_PROCESS = { "mcp-bridge": ["mcp-bridge"] };
