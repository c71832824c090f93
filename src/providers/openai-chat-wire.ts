// OpenAI Chat Completions wire shapes the adapter writes and reads, structural so that no one needs the SDK to use
// them.
import type { JsonObject } from "../core/types.js";

/** The function of a Chat Completions tool (the SDK's `FunctionDefinition`); `strict` only in strict mode. */
export interface OpenAIChatFunction {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
  readonly strict?: true;
}

/** One entry of a Chat Completions request's `tools` (the SDK's `ChatCompletionFunctionTool`). Frozen. */
export interface OpenAIChatTool {
  readonly type: "function";
  readonly function: OpenAIChatFunction;
}

/** A tool message as Chat Completions reads it (the SDK's `ChatCompletionToolMessageParam`): text only. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A tool call as `openaiChat.parseToolCalls` reads it: `id`, `function.name` and the `function.arguments` text. */
export interface OpenAIChatToolCallLike {
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: unknown };
}

/** An assistant message as `openaiChat.parseToolCalls` reads it (the SDK's `ChatCompletionMessage`). */
export interface OpenAIChatMessageLike {
  readonly tool_calls?: readonly OpenAIChatToolCallLike[] | null;
}

/**
 * What `openaiChat.parseToolCalls` reads: a chat completion (the SDK's `ChatCompletion`; its first choice counts)
 * or an assistant message itself.
 */
export type OpenAIChatCompletionLike =
  | { readonly choices: readonly { readonly message: OpenAIChatMessageLike }[] }
  | OpenAIChatMessageLike;
