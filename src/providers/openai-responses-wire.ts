// OpenAI Responses wire shapes the adapter writes and reads, structural so that no one needs the SDK to use them.
import type { JsonObject } from "../core/types.js";

/** One entry of a Responses request's `tools` (the SDK's `FunctionTool`); `strict` is always sent. Frozen. */
export interface OpenAIResponsesFunctionTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
  readonly strict: boolean;
}

/** One part of a function_call_output's `output` list (the SDK's input text, image and file contents). */
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string };

/** A function_call_output item as the Responses API reads it (the SDK's `ResponseInputItem.FunctionCallOutput`). */
export interface OpenAIResponsesToolOutput {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIResponsesOutputPart[];
}

/** An output item as `openaiResponses.parseToolCalls` reads it: a `function_call`'s `call_id`, `name`, `arguments`. */
export interface OpenAIResponsesItemLike {
  readonly type?: string | null;
  readonly call_id?: string | null;
  readonly name?: string;
  readonly arguments?: unknown;
}

/**
 * What `openaiResponses.parseToolCalls` reads: a response (the SDK's `Response`) or its `output` list (or any list
 * of input items, such as a `ResponseInput`).
 */
export type OpenAIResponseLike =
  | { readonly output: readonly OpenAIResponsesItemLike[] }
  | readonly OpenAIResponsesItemLike[];
