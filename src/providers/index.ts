// toolwire/providers: the four wire-format adapters with their wire types, and the parts of a model turn.
// The model clients themselves (createAnthropicModel, ...) and the ModelClient contract are in the root entry.

// Adapters: a session's tools, calls and results in each provider's own format.
export { ANTHROPIC_CODE_EXECUTION_TOOL, anthropic } from "./anthropic.js";
export { ProviderFormatError, type ProviderFormatErrorCode } from "./errors.js";
export { gemini } from "./gemini.js";
export { openaiChat } from "./openai-chat.js";
export { formatResponsesToolSearch, OPENAI_PROGRAMMATIC_TOOL, openaiResponses } from "./openai-responses.js";
export type {
  FormatToolResultsOptions,
  FormatToolsOptions,
  ProviderAdapter,
  ProviderName,
  ToolCall,
  ToolCallCaller,
} from "./types.js";

// Wire types: structural, assignable to the provider SDKs' own request and response types.
export type {
  AnthropicAllowedCaller,
  AnthropicCodeExecutionTool,
  AnthropicCodeExecutionVersion,
  AnthropicContentBlockLike,
  AnthropicImageMediaType,
  AnthropicInputSchema,
  AnthropicMessageLike,
  AnthropicResultContent,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolResultMessage,
} from "./anthropic-wire.js";
export type {
  GeminiContentLike,
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponsePart,
  GeminiInlineData,
  GeminiPartLike,
  GeminiResponseLike,
  GeminiTool,
} from "./gemini-wire.js";
export { listNonStrictTools, type NonStrictTool } from "./list-non-strict-tools.js";
export type {
  OpenAIChatCompletionLike,
  OpenAIChatFunction,
  OpenAIChatMessageLike,
  OpenAIChatTool,
  OpenAIChatToolCallLike,
  OpenAIChatToolMessage,
} from "./openai-chat-wire.js";
export type {
  OpenAIResponseLike,
  OpenAIResponsesCaller,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesItemLike,
  OpenAIResponsesOutputPart,
  OpenAIResponsesProgrammaticTool,
  OpenAIResponsesResultItem,
  OpenAIResponsesToolOutput,
  OpenAIResponsesToolSearchOutput,
  OpenAIResponsesToolSearchTool,
} from "./openai-responses-wire.js";

// Model turns: the parts of what a model client is given and answers, for writing a client of your own.
export { GEMINI_BASE_URL } from "./clients/gemini-model.js";
export type { ScriptedExpectation } from "./clients/scripted-model.js";
export type {
  ModelConnectionOptions,
  ModelGenerationOptions,
  ModelStopReason,
  ModelToolChoice,
  ModelUsage,
  ProviderMessage,
  ToolCallDelta,
} from "./clients/types.js";
