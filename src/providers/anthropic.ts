// Anthropic Messages: tools as { name, description, input_schema }, tool_use blocks in, tool_result blocks out.
import { isRecord, ownValue } from "../core/json.js";
import type { ContentBlock, ToolResultBlock } from "../core/types.js";
import type {
  AnthropicAllowedCaller,
  AnthropicCodeExecutionTool,
  AnthropicImageMediaType,
  AnthropicInputSchema,
  AnthropicMessageLike,
  AnthropicResultContent,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolResultMessage,
} from "./anthropic-wire.js";
import {
  blockAsText,
  cachedToolEntries,
  DIRECT_CALLER,
  nativeSearchFinder,
  pairResultsWithCalls,
  stringField,
} from "./shared.js";
import type { ProviderAdapter, ToolCall, ToolCallCaller } from "./types.js";

/**
 * The code execution tool whose programs may call the tools `formatTools(..., { programmaticToolCalling: true })`
 * marks: add it to the request's `tools` beside them. Frozen.
 */
export const ANTHROPIC_CODE_EXECUTION_TOOL: AnthropicCodeExecutionTool = Object.freeze({
  type: "code_execution_20260120",
  name: "code_execution",
});

/** Every tool's `allowed_callers` with programmatic tool calling: the model and the code execution's programs. */
const BOTH_CALLERS = Object.freeze(["direct", ANTHROPIC_CODE_EXECUTION_TOOL.type]) as AnthropicAllowedCaller[];

/**
 * The Anthropic Messages adapter. Schemas go as they are (Anthropic takes JSON Schema); results become one user
 * message of `tool_result` blocks, errors flagged `is_error: true`. JPEG, PNG, GIF and WebP images (image blocks
 * and embedded blobs) become base64 image blocks, an embedded PDF a base64 document block titled with its URI, a
 * text resource its text; other images, audio, other blobs and resource links a text block describing them.
 * Empty text blocks are left out (Anthropic refuses them): a result left with nothing goes without content, an
 * error result with a line saying the tool gave no reason (Anthropic refuses an error without content).
 * Native deferral: `formatTools(tools, { deferLoading: true })` marks the tools `defer_loading: true`, and with
 * `formatToolResults(..., { toolSearch })` a `tool_search` result that found tools is a `tool_reference` block per
 * tool found (and nothing else: the API expands each into the tool's definition).
 * Programmatic tool calling: `formatTools(tools, { programmaticToolCalling: true })` lets code execution's programs
 * call the tools (`allowed_callers`); a `tool_use` block's `caller` is read into the call's `caller` (`{ type:
 * "code_execution_<date>", tool_id }` as `{ type: "program", id: tool_id }`).
 */
export const anthropic: ProviderAdapter<AnthropicTool, AnthropicToolResultMessage, AnthropicMessageLike> = {
  name: "anthropic",
  formatTools(tools, options) {
    const deferLoading = options?.deferLoading === true;
    const programmatic = options?.programmaticToolCalling === true;
    return cachedToolEntries(
      tools,
      `anthropic${deferLoading ? "-deferred" : ""}${programmatic ? "-programmatic" : ""}`,
      (descriptor): AnthropicTool => ({
        name: descriptor.name,
        description: descriptor.description,
        // A descriptor's schema is of `type: "object"` by contract (`defineTool` checks it).
        input_schema: descriptor.inputSchema as AnthropicInputSchema,
        ...(deferLoading ? { defer_loading: true as const } : {}),
        ...(programmatic ? { allowed_callers: BOTH_CALLERS } : {}),
      }),
    );
  },
  parseToolCalls(response: unknown) {
    if (!isRecord(response) || !Array.isArray(response.content)) return [];
    const calls: ToolCall[] = [];
    for (const block of response.content) {
      if (!isRecord(block) || block.type !== "tool_use") continue;
      const call = { id: stringField(block, "id"), name: stringField(block, "name"), input: block.input ?? {} };
      const caller = readAnthropicCaller(ownValue(block, "caller"));
      calls.push(caller === undefined ? call : { ...call, caller });
    }
    return calls;
  },
  formatToolResults(results, calls, options) {
    const foundBy = nativeSearchFinder(options);
    return {
      role: "user",
      content: pairResultsWithCalls(results, calls).map(({ call, result }) => {
        const found = foundBy(call, result);
        if (found === undefined || found.length === 0) return toAnthropic(result);
        const references = found.map((tool) => ({ type: "tool_reference" as const, tool_name: tool.name }));
        return { type: "tool_result", tool_use_id: result.tool_use_id, content: references };
      }),
    };
  },
};

/**
 * A `tool_use` block's `caller` as a call's: `{ type: "direct" }`, or a code execution version (`code_execution_`
 * and a date, whatever the date) with its `tool_id` as a program. Anything else is untrusted noise: undefined.
 */
function readAnthropicCaller(caller: unknown): ToolCallCaller | undefined {
  if (!isRecord(caller)) return undefined;
  const type = ownValue(caller, "type");
  if (type === "direct") return DIRECT_CALLER;
  const id = ownValue(caller, "tool_id");
  if (typeof type !== "string" || !type.startsWith("code_execution_") || typeof id !== "string" || id === "") {
    return undefined;
  }
  return { type: "program", id };
}

/** What an error result with nothing to say carries: Anthropic refuses an error `tool_result` without content. */
const EMPTY_ERROR_TEXT = "The tool failed without saying why.";

function toAnthropic(result: ToolResultBlock): AnthropicToolResult {
  const block: AnthropicToolResult = { type: "tool_result", tool_use_id: result.tool_use_id };
  // Anthropic refuses an empty text block ("text content blocks must be non-empty"), and an error result without
  // content; a result without content is accepted.
  const content = result.content.map(toAnthropicContent).filter((part) => part.type !== "text" || part.text !== "");
  if (result.is_error === true) {
    block.content = content.length > 0 ? content : [{ type: "text", text: EMPTY_ERROR_TEXT }];
    block.is_error = true;
  } else if (content.length > 0) {
    block.content = content;
  }
  return block;
}

/** The image types Anthropic reads, for image blocks and embedded blobs. */
const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageMediaType>([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
]);

function isAnthropicImageType(mimeType: string | undefined): mimeType is AnthropicImageMediaType {
  return mimeType !== undefined && ANTHROPIC_IMAGE_TYPES.has(mimeType);
}

function toAnthropicContent(block: ContentBlock): AnthropicResultContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      if (isAnthropicImageType(block.mimeType)) {
        return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } };
      }
      break;
    case "resource": {
      const { uri, mimeType, blob } = block.resource;
      if (blob !== undefined && mimeType === "application/pdf") {
        return { type: "document", source: { type: "base64", media_type: mimeType, data: blob }, title: uri };
      }
      if (blob !== undefined && isAnthropicImageType(mimeType)) {
        return { type: "image", source: { type: "base64", media_type: mimeType, data: blob } };
      }
      break;
    }
  }
  return { type: "text", text: blockAsText(block) };
}
