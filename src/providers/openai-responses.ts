// OpenAI Responses: flat function tools, function_call output items in, function_call_output items out.
import { isRecord } from "../core/json.js";
import type { ToolResultBlock } from "../core/types.js";
import { adaptSchema } from "./schema-adapt.js";
import { cachedToolEntry, descriptorOf, pairResultsWithCalls, parseArgumentsText, stringField } from "./shared.js";
import type { ProviderAdapter, ToolCall } from "./types.js";

/** A function_call_output item as the Responses API reads it. */
export interface OpenAIResponsesToolOutput {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIResponsesOutputPart[];
}
/** One part of a function_call_output's `output` list. */
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" };

/**
 * The OpenAI Responses adapter. Tools are flat and carry `strict: false` unless `strict: true` (then the
 * strict-mode schema); calls are answered by `call_id`; output is text (errors prefixed `Error: `), or a list of
 * `input_text` / `input_image` parts when the result has images.
 */
export const openaiResponses: ProviderAdapter = {
  name: "openai-responses",
  formatTools(tools, options) {
    const strict = options?.strict === true;
    return Array.from(tools, (tool) => {
      const descriptor = descriptorOf(tool);
      return cachedToolEntry(descriptor, strict ? "openai-responses-strict" : "openai-responses", () => ({
        type: "function",
        name: descriptor.name,
        description: descriptor.description,
        parameters: strict ? adaptSchema(descriptor.inputSchema, "openai-strict") : descriptor.inputSchema,
        strict,
      }));
    });
  },
  parseToolCalls(response) {
    const items = Array.isArray(response) ? response : isRecord(response) ? response.output : undefined;
    if (!Array.isArray(items)) return [];
    const calls: ToolCall[] = [];
    for (const item of items) {
      if (!isRecord(item) || item.type !== "function_call") continue;
      calls.push({
        id: stringField(item, "call_id"),
        name: stringField(item, "name"),
        input: parseArgumentsText(item.arguments),
      });
    }
    return calls;
  },
  formatToolResults(results, calls): OpenAIResponsesToolOutput[] {
    return pairResultsWithCalls(results, calls).map(({ result }) => ({
      type: "function_call_output",
      call_id: result.tool_use_id,
      output: toOutput(result),
    }));
  },
};

function toOutput(result: ToolResultBlock): string | OpenAIResponsesOutputPart[] {
  const isError = result.is_error === true;
  if (result.content.every((block) => block.type === "text")) {
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
    return isError ? `Error: ${text}` : text;
  }
  const parts: OpenAIResponsesOutputPart[] = result.content.map((block) =>
    block.type === "image"
      ? { type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}`, detail: "auto" }
      : { type: "input_text", text: block.text },
  );
  if (isError) {
    const first = parts[0];
    if (first?.type === "input_text") parts[0] = { type: "input_text", text: `Error: ${first.text}` };
    else parts.unshift({ type: "input_text", text: "Error:" });
  }
  return parts;
}
