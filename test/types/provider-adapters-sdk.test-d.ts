// Compiled, never run (`npm run typecheck`): the adapters' wire types against the official SDKs' own types, both ways.
// What an adapter gives must be what its SDK takes, and what its SDK returns must be what the adapter reads, with
// no cast. The SDKs are dev dependencies: toolwire's own declarations never import them (see public-declarations.test.ts).
// Compiled twice: against openai 6 and @google/genai 2 (tsconfig.json), and against their current majors, openai 7 and
// @google/genai 3 (tsconfig.majors.json beside this file maps the imports to the dev dependencies openai-7 and genai-3).
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Content,
  Tool as GenaiTool,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
} from "@google/genai";
import type OpenAI from "openai";
import {
  ANTHROPIC_CODE_EXECUTION_TOOL,
  type AnthropicMessageLike,
  type AnthropicResultContent,
  anthropic,
  type formatResponsesToolSearch,
  type GeminiResponseLike,
  gemini,
  type OpenAIChatCompletionLike,
  type OpenAIResponseLike,
  type OpenAIResponsesFunctionTool,
  type OpenAIResponsesToolSearchOutput,
  type OpenAIResponsesToolSearchTool,
  openaiChat,
  openaiResponses,
  type ProviderAdapter,
} from "../../src/providers/index.js";

/** Compiles only when `value` is assignable to `T`. */
declare function accepts<T>(value: T): void;
/** Compiles only when `T` is `false`: with `IsAny`, a type that degraded to `any` fails. */
declare function isFalse<T extends false>(): void;
type IsAny<T> = 0 extends 1 & T ? true : false;

declare const anthropicTools: ReturnType<typeof anthropic.formatTools>;
declare const anthropicResults: ReturnType<typeof anthropic.formatToolResults>;
declare const chatTools: ReturnType<typeof openaiChat.formatTools>;
declare const chatResults: ReturnType<typeof openaiChat.formatToolResults>;
declare const responsesTools: ReturnType<typeof openaiResponses.formatTools>;
declare const responsesResults: ReturnType<typeof openaiResponses.formatToolResults>;
declare const geminiTools: ReturnType<typeof gemini.formatTools>;
declare const geminiResults: ReturnType<typeof gemini.formatToolResults>;

// ---------------------------------------------------------------- any adapter

accepts<ProviderAdapter>(anthropic);
accepts<ProviderAdapter>(openaiChat);
accepts<ProviderAdapter>(openaiResponses);
accepts<ProviderAdapter>(gemini);
accepts<readonly ProviderAdapter[]>([anthropic, openaiChat, openaiResponses, gemini]);
// parseToolCalls still takes anything: a body not yet known to be a response gives [].
declare const body: unknown;
accepts<ReturnType<ProviderAdapter["parseToolCalls"]>>(anthropic.parseToolCalls(body));

isFalse<IsAny<(typeof anthropicTools)[number]>>();
isFalse<IsAny<typeof anthropicResults>>();
isFalse<IsAny<(typeof chatTools)[number]>>();
isFalse<IsAny<(typeof chatResults)[number]>>();
isFalse<IsAny<(typeof responsesTools)[number]>>();
isFalse<IsAny<(typeof responsesResults)[number]>>();
isFalse<IsAny<(typeof geminiTools)[number]>>();
isFalse<IsAny<typeof geminiResults>>();

// ---------------------------------------------------------------- Anthropic Messages

accepts<Anthropic.Messages.Tool[]>(anthropicTools);
accepts<Anthropic.Messages.ToolUnion[]>(anthropicTools);
// Programmatic tool calling: the tools with allowed_callers, then the code execution tool.
accepts<Anthropic.Messages.ToolUnion[]>([
  ...anthropic.formatTools([], { programmaticToolCalling: true }),
  ANTHROPIC_CODE_EXECUTION_TOOL,
]);
accepts<Anthropic.Messages.MessageParam>(anthropicResults);
accepts<Anthropic.Messages.ToolResultBlockParam[]>(anthropicResults.content);
accepts<Anthropic.Messages.MessageCreateParamsNonStreaming>({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  tools: anthropicTools,
  messages: [{ role: "user", content: "Weather in Paris?" }, anthropicResults],
});
declare const anthropicMessage: Anthropic.Messages.Message;
declare const anthropicAssistant: Anthropic.Messages.MessageParam;
accepts<AnthropicMessageLike>(anthropicMessage);
accepts<AnthropicMessageLike>(anthropicAssistant);
anthropic.parseToolCalls(anthropicMessage);

// Native deferral: a deferred tool, and a tool_search result of tool_reference blocks.
const anthropicDeferred = anthropic.formatTools([], { deferLoading: true });
accepts<Anthropic.Messages.Tool[]>(anthropicDeferred);
accepts<Anthropic.Messages.ToolResultBlockParam["content"]>([
  { type: "tool_reference", tool_name: "get_weather" } satisfies AnthropicResultContent,
]);
accepts<Anthropic.Messages.MessageCreateParamsNonStreaming>({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  tools: [...anthropicTools, ...anthropicDeferred],
  messages: [
    { role: "user", content: "Weather in Paris?" },
    anthropic.formatToolResults([], [], { toolSearch: { deferredTools: [] } }),
  ],
});

// @ts-expect-error Anthropic reads JPEG, PNG, GIF and WebP images only: the type says so.
accepts<AnthropicResultContent>({ type: "image", source: { type: "base64", media_type: "image/svg+xml", data: "" } });
// @ts-expect-error one user message of tool_result blocks is not a list of Chat Completions tool messages.
accepts<OpenAI.Chat.Completions.ChatCompletionToolMessageParam[]>(anthropicResults);
// @ts-expect-error an Anthropic tool has no `function`.
accepts<OpenAI.Chat.Completions.ChatCompletionFunctionTool[]>(anthropicTools);

// ---------------------------------------------------------------- OpenAI Chat Completions

accepts<OpenAI.Chat.Completions.ChatCompletionFunctionTool[]>(chatTools);
accepts<OpenAI.Chat.Completions.ChatCompletionTool[]>(chatTools);
accepts<OpenAI.Chat.Completions.ChatCompletionTool[]>(openaiChat.formatTools([], { strict: true }));
accepts<OpenAI.Chat.Completions.ChatCompletionToolMessageParam[]>(chatResults);
accepts<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>(chatResults);
declare const chatAssistant: OpenAI.Chat.Completions.ChatCompletionMessage;
accepts<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming>({
  model: "gpt-4.1",
  tools: chatTools,
  messages: [{ role: "user", content: "Weather in Paris?" }, chatAssistant, ...chatResults],
});
declare const completion: OpenAI.Chat.Completions.ChatCompletion;
declare const assistantParam: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam;
accepts<OpenAIChatCompletionLike>(completion);
accepts<OpenAIChatCompletionLike>(chatAssistant);
accepts<OpenAIChatCompletionLike>(assistantParam);
openaiChat.parseToolCalls(completion);

// @ts-expect-error a Chat Completions tool is not a flat Responses function tool.
accepts<OpenAI.Responses.FunctionTool[]>(chatTools);
// @ts-expect-error tool messages are not Responses input items.
accepts<OpenAI.Responses.ResponseInput>(chatResults);

// ---------------------------------------------------------------- OpenAI Responses

accepts<OpenAI.Responses.FunctionTool[]>(responsesTools);
accepts<OpenAI.Responses.Tool[]>(responsesTools);
accepts<OpenAI.Responses.ResponseInput>(responsesResults);
// Each item is a function_call_output, or (answering a native tool search) a tool_search_output.
accepts<(OpenAI.Responses.ResponseInputItem.FunctionCallOutput | OpenAI.Responses.ResponseToolSearchOutputItemParam)[]>(
  responsesResults,
);
declare const response: OpenAI.Responses.Response;
declare const functionCalls: OpenAI.Responses.ResponseFunctionToolCall[];
accepts<OpenAI.Responses.ResponseCreateParamsNonStreaming>({
  model: "gpt-4.1",
  tools: responsesTools,
  // The model's function calls, then their results (openai 7 no longer takes every output item back as input: a
  // computer call's "failed" status).
  input: [{ role: "user", content: "Weather in Paris?" }, ...functionCalls, ...responsesResults],
});
declare const input: OpenAI.Responses.ResponseInput;
accepts<OpenAIResponseLike>(response);
accepts<OpenAIResponseLike>(response.output);
accepts<OpenAIResponseLike>(input);
openaiResponses.parseToolCalls(response);

// Native deferral: deferred function tools, the client-executed tool_search tool and its output item.
declare const toolSearchTool: ReturnType<typeof formatResponsesToolSearch>;
declare const toolSearchOutput: OpenAIResponsesToolSearchOutput;
declare const toolSearchCall: OpenAI.Responses.ResponseToolSearchCall;
isFalse<IsAny<typeof toolSearchTool>>();
accepts<OpenAIResponsesToolSearchTool>(toolSearchTool);
accepts<OpenAI.Responses.ToolSearchTool>(toolSearchTool);
accepts<OpenAI.Responses.FunctionTool[]>(openaiResponses.formatTools([], { deferLoading: true }));
accepts<OpenAI.Responses.ResponseToolSearchOutputItemParam>(toolSearchOutput);
accepts<OpenAI.Responses.Tool[]>(toolSearchOutput.tools satisfies OpenAIResponsesFunctionTool[]);
accepts<OpenAIResponseLike>([toolSearchCall]);
accepts<OpenAI.Responses.ResponseCreateParamsNonStreaming>({
  model: "gpt-5",
  tools: [...responsesTools, toolSearchTool],
  input: [{ role: "user", content: "Weather in Paris?" }, toolSearchCall, toolSearchOutput],
});
// @ts-expect-error a tool_search_output carries tool definitions, not text.
accepts<OpenAI.Responses.ResponseInputItem.FunctionCallOutput>(toolSearchOutput);

// @ts-expect-error function_call_output items are not Chat Completions messages.
accepts<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>(responsesResults);
// @ts-expect-error a Responses function tool is not a Gemini function declaration (no `functionDeclarations`).
accepts<GenaiTool[]>(responsesTools);

// ---------------------------------------------------------------- Gemini

accepts<GenaiTool[]>(geminiTools);
accepts<Content>(geminiResults);
accepts<Part[]>(geminiResults.parts);
declare const candidate: Content;
accepts<GenerateContentParameters>({
  model: "gemini-2.5-flash",
  contents: [{ role: "user", parts: [{ text: "Weather in Paris?" }] }, candidate, geminiResults],
  config: { tools: geminiTools },
});
declare const generated: GenerateContentResponse;
accepts<GeminiResponseLike>(generated);
accepts<GeminiResponseLike>(candidate);
gemini.parseToolCalls(generated);

// @ts-expect-error a Gemini content is not an Anthropic message (its role and parts are not role and content).
accepts<Anthropic.Messages.MessageParam>(geminiResults);
