// The provider layer's public API: the four wire-format adapters, schema adaptation, and the model clients.
export { anthropic } from "./anthropic.js";
export type {
  AnthropicContentBlockLike,
  AnthropicImageMediaType,
  AnthropicInputSchema,
  AnthropicMessageLike,
  AnthropicResultContent,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolResultMessage,
} from "./anthropic-wire.js";
export { type AnthropicModelOptions, createAnthropicModel } from "./clients/anthropic-model.js";
export { createGeminiModel, GEMINI_BASE_URL, type GeminiModelOptions } from "./clients/gemini-model.js";
export { createModelFromSpec, MODEL_SPEC_FORMS, type ModelSpecOptions } from "./clients/model-from-spec.js";
export { createOpenAIModel, type OpenAIModelOptions } from "./clients/openai-model.js";
export {
  createScriptedModel,
  loadScriptedModel,
  type ScriptedExpectation,
  type ScriptedScript,
  type ScriptedTurn,
} from "./clients/scripted-model.js";
export type {
  ModelClient,
  ModelConnectionOptions,
  ModelRequest,
  ModelStopReason,
  ModelTurn,
  ModelUsage,
  ProviderMessage,
  ToolCallDelta,
  TranscriptMessage,
} from "./clients/types.js";
export {
  ModelError,
  type ModelErrorCode,
  ProviderFormatError,
  type ProviderFormatErrorCode,
} from "./errors.js";
export { GEMINI_MADE_UP_ID_PREFIX, gemini } from "./gemini.js";
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
export { openaiChat } from "./openai-chat.js";
export type {
  OpenAIChatCompletionLike,
  OpenAIChatFunction,
  OpenAIChatMessageLike,
  OpenAIChatTool,
  OpenAIChatToolCallLike,
  OpenAIChatToolMessage,
} from "./openai-chat-wire.js";
export { formatResponsesToolSearch, openaiResponses } from "./openai-responses.js";
export type {
  OpenAIResponseLike,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesItemLike,
  OpenAIResponsesOutputPart,
  OpenAIResponsesResultItem,
  OpenAIResponsesToolOutput,
  OpenAIResponsesToolSearchOutput,
  OpenAIResponsesToolSearchTool,
} from "./openai-responses-wire.js";
export { type StrictSchemaResult, toOpenAIStrictSchema } from "./openai-strict-schema.js";
export { adaptSchema, type SchemaVariant, toGeminiSchema, toStrictSchema } from "./schema-adapt.js";
export type { FormatToolResultsOptions, FormatToolsOptions, ProviderAdapter, ProviderName, ToolCall } from "./types.js";
