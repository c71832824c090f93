// OpenAI Responses wire shapes the adapter writes and reads, structural so that no one needs the SDK to use them.
import type { JsonObject } from "../core/types.js";

/**
 * One entry of a Responses request's `tools` (the SDK's `FunctionTool`); `strict` is always sent. Frozen.
 * `defer_loading` (only with `formatTools(..., { deferLoading: true })`) leaves the definition out of the model's
 * context until a `tool_search_output` loads it.
 */
export interface OpenAIResponsesFunctionTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
  readonly strict: boolean;
  readonly defer_loading?: true;
}

/**
 * The Responses API's own tool search, run by the client (the SDK's `ToolSearchTool` with `execution: "client"`):
 * the model emits `tool_search_call` items with `arguments` of `parameters`' shape, and the client answers each with
 * a `tool_search_output` item. Frozen.
 */
export interface OpenAIResponsesToolSearchTool {
  readonly type: "tool_search";
  readonly execution: "client";
  readonly description: string;
  readonly parameters: JsonObject;
}

/**
 * The answer to a client-executed `tool_search_call` (the SDK's `ResponseToolSearchOutputItemParam`): the found
 * tools' definitions, which join the tools the model can call.
 */
export interface OpenAIResponsesToolSearchOutput {
  type: "tool_search_output";
  call_id: string;
  execution: "client";
  tools: OpenAIResponsesFunctionTool[];
}

/** One item of what `openaiResponses.formatToolResults` gives. */
export type OpenAIResponsesResultItem = OpenAIResponsesToolOutput | OpenAIResponsesToolSearchOutput;

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

/**
 * An output item as `openaiResponses.parseToolCalls` reads it: a `function_call`'s `call_id`, `name`, `arguments`,
 * or a `tool_search_call`'s `call_id`, `arguments` and `execution`.
 */
export interface OpenAIResponsesItemLike {
  readonly type?: string | null;
  readonly call_id?: string | null;
  readonly name?: string | null;
  readonly arguments?: unknown;
  readonly execution?: string | null;
}

/**
 * What `openaiResponses.parseToolCalls` reads: a response (the SDK's `Response`) or its `output` list (or any list
 * of input items, such as a `ResponseInput`).
 */
export type OpenAIResponseLike =
  | { readonly output: readonly OpenAIResponsesItemLike[] }
  | readonly OpenAIResponsesItemLike[];
