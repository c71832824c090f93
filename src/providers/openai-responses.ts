// OpenAI Responses: flat function tools, function_call output items in, function_call_output items out.
import { isRecord } from "../core/json.js";
import type { ContentBlock, ToolResultBlock } from "../core/types.js";
import type {
  OpenAIResponseLike,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesOutputPart,
  OpenAIResponsesToolOutput,
} from "./openai-responses-wire.js";
import { adaptSchema } from "./schema-adapt.js";
import {
  blockAsText,
  cachedToolEntry,
  descriptorOf,
  pairResultsWithCalls,
  parseArgumentsText,
  resourceFileName,
  stringField,
} from "./shared.js";
import type { ProviderAdapter, ToolCall } from "./types.js";

/**
 * The OpenAI Responses adapter. Tools are flat and carry `strict: false` unless `strict: true` (then the
 * strict-mode schema); calls are answered by `call_id`; output is text (errors prefixed `Error: `) when every
 * block is text (a text resource counts as its text), otherwise a list of parts: images (and embedded image blobs)
 * as `input_image` data URLs, an embedded PDF as an `input_file` named after its URI, everything else as
 * `input_text` (audio, other blobs and resource links described).
 */
export const openaiResponses: ProviderAdapter<
  OpenAIResponsesFunctionTool,
  OpenAIResponsesToolOutput[],
  OpenAIResponseLike
> = {
  name: "openai-responses",
  formatTools(tools, options) {
    const strict = options?.strict === true;
    return Array.from(tools, (tool) => {
      const descriptor = descriptorOf(tool);
      return cachedToolEntry(
        descriptor,
        strict ? "openai-responses-strict" : "openai-responses",
        (): OpenAIResponsesFunctionTool => ({
          type: "function",
          name: descriptor.name,
          description: descriptor.description,
          parameters: strict ? adaptSchema(descriptor.inputSchema, "openai-strict") : descriptor.inputSchema,
          strict,
        }),
      );
    });
  },
  parseToolCalls(response: unknown) {
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
  formatToolResults(results, calls) {
    return pairResultsWithCalls(results, calls).map(({ result }) => ({
      type: "function_call_output",
      call_id: result.tool_use_id,
      output: toOutput(result),
    }));
  },
};

function toOutput(result: ToolResultBlock): string | OpenAIResponsesOutputPart[] {
  const isError = result.is_error === true;
  const parts = result.content.map(toOutputPart);
  if (parts.every((part) => part.type === "input_text")) {
    const text = parts.map((part) => (part as { text: string }).text).join("\n");
    return isError ? `Error: ${text}` : text;
  }
  if (isError) {
    const first = parts[0];
    if (first?.type === "input_text") parts[0] = { type: "input_text", text: `Error: ${first.text}` };
    else parts.unshift({ type: "input_text", text: "Error:" });
  }
  return parts;
}

function toOutputPart(block: ContentBlock): OpenAIResponsesOutputPart {
  switch (block.type) {
    case "text":
      return { type: "input_text", text: block.text };
    case "image":
      return { type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}`, detail: "auto" };
    case "resource": {
      const { uri, mimeType, blob } = block.resource;
      if (blob !== undefined && mimeType?.startsWith("image/") === true) {
        return { type: "input_image", image_url: `data:${mimeType};base64,${blob}`, detail: "auto" };
      }
      if (blob !== undefined && mimeType === "application/pdf") {
        const filename = resourceFileName(uri, "resource.pdf");
        return { type: "input_file", file_data: `data:${mimeType};base64,${blob}`, filename };
      }
      break;
    }
  }
  return { type: "input_text", text: blockAsText(block) };
}
