// The public API of toolwire/ai-sdk, loaded by ./index.ts once the AI SDK (`ai`) is known to be installed.
export { type ToolCallFailedCode, ToolCallFailedError } from "../tool-call-failed-error.js";
export { fromAiSdkModelOutput } from "./from-ai-sdk-model-output.js";
export { type FromAiSdkToolsOptions, fromAiSdkTools } from "./from-ai-sdk-tools.js";
export {
  type AiSdkToolResultOutput,
  type ToAiSdkModelOutputOptions,
  toAiSdkModelOutput,
} from "./to-ai-sdk-model-output.js";
export { type AiSdkToolOutput, type ToAiSdkToolsOptions, toAiSdkTools } from "./to-ai-sdk-tools.js";
