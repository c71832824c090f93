// The agent loop's public API.
export { AgentLoopError, type AgentLoopErrorCode } from "./errors.js";
export { DEFAULT_MAX_TURNS, runAgent } from "./run-agent.js";
export type { AgentEvent, AgentStopReason, RunAgentOptions } from "./types.js";
