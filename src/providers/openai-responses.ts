// OpenAI Responses: flat function tools, function_call output items in, function_call_output items out.

import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import { isRecord, ownValue } from "../core/json.js";
import type { AgentTool, ContentBlock, ToolDescriptor, ToolResultBlock } from "../core/types.js";
import type {
  OpenAIResponseLike,
  OpenAIResponsesCaller,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesOutputPart,
  OpenAIResponsesProgrammaticTool,
  OpenAIResponsesResultItem,
  OpenAIResponsesToolOutput,
  OpenAIResponsesToolSearchTool,
} from "./openai-responses-wire.js";
import { openAIParameters } from "./schema-adapt.js";
import {
  blockAsText,
  cachedToolEntries,
  cachedToolEntry,
  DIRECT_CALLER,
  descriptorOf,
  nativeSearchFinder,
  pairResultsWithCalls,
  parseArgumentsText,
  resourceFileName,
  stringField,
} from "./shared.js";
import type { ProviderAdapter, ToolCall, ToolCallCaller } from "./types.js";

/**
 * The tool that lets the model write programs calling the tools `formatTools(..., { programmaticToolCalling: true })`
 * marks: add it to the request's `tools` beside them. Frozen.
 */
export const OPENAI_PROGRAMMATIC_TOOL: OpenAIResponsesProgrammaticTool = Object.freeze({
  type: "programmatic_tool_calling",
});

/** Every tool's `allowed_callers` with programmatic tool calling: the model and its programs. */
const BOTH_CALLERS = Object.freeze(["direct", "programmatic"]) as ("direct" | "programmatic")[];

/**
 * The OpenAI Responses adapter. Tools are flat and carry `strict: false` unless `strict: true` (then the
 * strict-mode schema, for each tool whose schema can be made strict: `listNonStrictTools` says which cannot; an
 * array schema without `items` gets `items: {}` otherwise, as OpenAI refuses it); calls are answered by `call_id`;
 * output is text (errors prefixed `Error: `) when every block is text (a text resource counts as its text), otherwise a
 * list of parts: images (and embedded image blobs) as `input_image` data URLs, an embedded PDF as an `input_file` named
 * after its URI, everything else as `input_text` (audio, other blobs and resource links described). Native deferral:
 * `formatTools(tools, { deferLoading: true })` marks the tools `defer_loading: true`; a client-executed
 * `tool_search_call` item is read as a call of `tool_search`; with `formatToolResults(..., { toolSearch })` its result
 * is a `tool_search_output` item listing the found tools' definitions (as `formatTools` gives them, without
 * `defer_loading`). Programmatic tool calling: `formatTools(tools, { programmaticToolCalling: true })` lets the model's
 * programs call the tools (`allowed_callers`); a `function_call`'s `caller` is read into the call's `caller` (`{ type:
 * "program", caller_id }` as `{ type: "program", id: caller_id }`) and echoed on its `function_call_output`.
 */
export const openaiResponses: ProviderAdapter<
  OpenAIResponsesFunctionTool,
  OpenAIResponsesResultItem[],
  OpenAIResponseLike
> = {
  name: "openai-responses",
  formatTools(tools, options) {
    const strict = options?.strict === true;
    const deferLoading = options?.deferLoading === true;
    const programmatic = options?.programmaticToolCalling === true;
    const variant = `openai-responses${strict ? "-strict" : ""}${deferLoading ? "-deferred" : ""}${programmatic ? "-programmatic" : ""}`;
    return cachedToolEntries(tools, variant, (descriptor): OpenAIResponsesFunctionTool => {
      const sent = openAIParameters(descriptor.inputSchema, strict);
      return {
        type: "function",
        name: descriptor.name,
        description: descriptor.description,
        parameters: sent.parameters,
        strict: sent.strict,
        ...(deferLoading ? { defer_loading: true as const } : {}),
        ...(programmatic ? { allowed_callers: BOTH_CALLERS } : {}),
      };
    });
  },
  parseToolCalls(response: unknown) {
    const items = Array.isArray(response) ? response : isRecord(response) ? response.output : undefined;
    if (!Array.isArray(items)) return [];
    const calls: ToolCall[] = [];
    for (const item of items) {
      if (!isRecord(item)) continue;
      if (item.type === "function_call") {
        const call = {
          id: stringField(item, "call_id"),
          name: stringField(item, "name"),
          input: parseArgumentsText(item.arguments),
        };
        const caller = readResponsesCaller(ownValue(item, "caller"));
        calls.push(caller === undefined ? call : { ...call, caller });
      } else if (item.type === "tool_search_call" && item.execution === "client") {
        // A server-executed search is the API's own business: only the client's are toolwire's to answer.
        calls.push({
          id: stringField(item, "call_id"),
          name: TOOL_SEARCH_NAME,
          input: parseArgumentsText(item.arguments),
        });
      }
    }
    return calls;
  },
  formatToolResults(results, calls, options) {
    const foundBy = nativeSearchFinder(options);
    const strict = options?.toolSearch?.strict === true;
    const programmaticToolCalling = options?.toolSearch?.programmaticToolCalling === true;
    return pairResultsWithCalls(results, calls).map(({ call, result }): OpenAIResponsesResultItem => {
      const found = foundBy(call, result);
      if (found !== undefined) {
        const tools = openaiResponses.formatTools(found, { strict, programmaticToolCalling });
        return { type: "tool_search_output", call_id: result.tool_use_id, execution: "client", tools };
      }
      const output: OpenAIResponsesToolOutput = {
        type: "function_call_output",
        call_id: result.tool_use_id,
        output: toOutput(result),
      };
      if (call?.caller !== undefined) output.caller = toResponsesCaller(call.caller);
      return output;
    });
  },
};

/**
 * A `function_call`'s `caller` as a call's: `{ type: "direct" }`, or `{ type: "program", caller_id }` with the
 * program item's call id. Anything else is untrusted noise: undefined.
 */
function readResponsesCaller(caller: unknown): ToolCallCaller | undefined {
  if (!isRecord(caller)) return undefined;
  const type = ownValue(caller, "type");
  if (type === "direct") return DIRECT_CALLER;
  const id = ownValue(caller, "caller_id");
  return type === "program" && typeof id === "string" && id !== "" ? { type: "program", id } : undefined;
}

function toResponsesCaller(caller: ToolCallCaller): OpenAIResponsesCaller {
  return caller.type === "program" ? { type: "program", caller_id: caller.id } : { type: "direct" };
}

/**
 * The `tool_search` tool (the session's own, or any tool standing for it) as the Responses API's client-executed
 * tool search: its description and input schema, `execution: "client"`. Sent in place of the function tool when
 * the deferred tools go with `defer_loading: true`. The same object for the same descriptor (frozen).
 */
export function formatResponsesToolSearch(tool: ToolDescriptor | AgentTool): OpenAIResponsesToolSearchTool {
  const descriptor = descriptorOf(tool);
  return cachedToolEntry(descriptor, "openai-responses-tool-search", () => ({
    type: "tool_search",
    execution: "client",
    description: descriptor.description,
    parameters: descriptor.inputSchema,
  }));
}

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
