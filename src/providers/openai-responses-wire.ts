// OpenAI Responses wire shapes the adapter writes and reads, structural so that no one needs the SDK to use them.
import type { JsonObject } from "../core/types.js";

/**
 * One entry of a Responses request's `tools` (the SDK's `FunctionTool`); `strict` is always sent. Frozen.
 * `defer_loading` (only with `formatTools(..., { deferLoading: true })`) leaves the definition out of the model's
 * context until a `tool_search_output` loads it. `allowed_callers` (only with `formatTools(..., {
 * programmaticToolCalling: true })`) lets the model's programs call it as well as the model.
 */
export interface OpenAIResponsesFunctionTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
  readonly strict: boolean;
  readonly defer_loading?: true;
  readonly allowed_callers?: ("direct" | "programmatic")[];
}

/**
 * The tool that turns on programmatic tool calling (the SDK's `Tool.ProgrammaticToolCalling`): the model may write a
 * program that calls the function tools whose `allowed_callers` include `programmatic`.
 */
export interface OpenAIResponsesProgrammaticTool {
  readonly type: "programmatic_tool_calling";
}

/**
 * Who made a call, as the Responses API writes it on a `function_call` item and reads it on its
 * `function_call_output`: the model, or the program item with that `call_id`.
 */
export type OpenAIResponsesCaller = { type: "direct" } | { type: "program"; caller_id: string };

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

/**
 * A function_call_output item as the Responses API reads it (the SDK's `ResponseInputItem.FunctionCallOutput`);
 * `caller` echoes the call's, when it had one.
 */
export interface OpenAIResponsesToolOutput {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIResponsesOutputPart[];
  caller?: OpenAIResponsesCaller;
}

/**
 * An output item as `openaiResponses.parseToolCalls` reads it: a `function_call`'s `call_id`, `name`, `arguments`
 * and `caller`, or a `tool_search_call`'s `call_id`, `arguments` and `execution`.
 */
export interface OpenAIResponsesItemLike {
  readonly type?: string | null;
  readonly call_id?: string | null;
  readonly name?: string | null;
  readonly arguments?: unknown;
  readonly execution?: string | null;
  readonly caller?: unknown;
}

/**
 * What `openaiResponses.parseToolCalls` reads: a response (the SDK's `Response`) or its `output` list (or any list
 * of input items, such as a `ResponseInput`).
 */
export type OpenAIResponseLike =
  | { readonly output: readonly OpenAIResponsesItemLike[] }
  | readonly OpenAIResponsesItemLike[];
