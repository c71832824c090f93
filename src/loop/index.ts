// The agent loop's public API.
export { AgentLoopError, type AgentLoopErrorCode } from "./errors.js";
export { resumeAgent } from "./resume-agent.js";
export { DEFAULT_MAX_TURNS, runAgent } from "./run-agent.js";
export type { AgentRunState } from "./run-state.js";
export type { AgentEvent, ResumeAgentOptions, RunAgentOptions } from "./types.js";
