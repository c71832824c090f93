// The public API of toolwire/openai-agents, loaded by ./index.ts once @openai/agents-core is known to be installed.
export { type ToolCallFailedCode, ToolCallFailedError } from "../tool-call-failed-error.js";
export { fromOpenAIAgentsOutput, OPENAI_AGENTS_DEFAULT_ERROR_TEXT } from "./from-openai-agents-output.js";
export { type FromOpenAIAgentsToolsOptions, fromOpenAIAgentsTools } from "./from-openai-agents-tools.js";
export { toOpenAIAgentsOutput } from "./to-openai-agents-output.js";
export {
  type OpenAIAgentsFunctionTool,
  type ToOpenAIAgentsToolsOptions,
  toOpenAIAgentsTools,
} from "./to-openai-agents-tools.js";
