// Anthropic Messages: tools as { name, description, input_schema }, tool_use blocks in, tool_result blocks out.
import { isRecord } from "../core/json.js";
import type { ContentBlock, ToolResultBlock } from "../core/types.js";
import { blockAsText, cachedToolEntry, descriptorOf, pairResultsWithCalls, stringField } from "./shared.js";
import type { ProviderAdapter, ToolCall } from "./types.js";

/** A tool_result block as Anthropic reads it. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content?: AnthropicResultContent[];
  is_error?: true;
}
/** The content of an Anthropic tool_result: text, a base64 image, or a base64 PDF document. */
export type AnthropicResultContent =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string }; title: string };

/**
 * The Anthropic Messages adapter. Schemas go as they are (Anthropic takes JSON Schema); results become one user
 * message of `tool_result` blocks, errors flagged `is_error: true`. Images (and embedded JPEG, PNG, GIF or WebP
 * blobs) become base64 image blocks, an embedded PDF a base64 document block titled with its URI, a text resource
 * its text; audio, other blobs and resource links a text block describing them.
 */
export const anthropic: ProviderAdapter = {
  name: "anthropic",
  formatTools(tools) {
    return Array.from(tools, (tool) => {
      const descriptor = descriptorOf(tool);
      return cachedToolEntry(descriptor, "anthropic", () => ({
        name: descriptor.name,
        description: descriptor.description,
        input_schema: descriptor.inputSchema,
      }));
    });
  },
  parseToolCalls(response) {
    if (!isRecord(response) || !Array.isArray(response.content)) return [];
    const calls: ToolCall[] = [];
    for (const block of response.content) {
      if (!isRecord(block) || block.type !== "tool_use") continue;
      calls.push({ id: stringField(block, "id"), name: stringField(block, "name"), input: block.input ?? {} });
    }
    return calls;
  },
  formatToolResults(results, calls): { role: "user"; content: AnthropicToolResult[] } {
    return { role: "user", content: pairResultsWithCalls(results, calls).map(({ result }) => toAnthropic(result)) };
  },
};

function toAnthropic(result: ToolResultBlock): AnthropicToolResult {
  const block: AnthropicToolResult = { type: "tool_result", tool_use_id: result.tool_use_id };
  if (result.content.length > 0) block.content = result.content.map(toAnthropicContent);
  if (result.is_error === true) block.is_error = true;
  return block;
}

/** The image types Anthropic reads, for an embedded blob (an image block goes as it is). */
const ANTHROPIC_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function toAnthropicContent(block: ContentBlock): AnthropicResultContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } };
    case "resource": {
      const { uri, mimeType, blob } = block.resource;
      if (blob !== undefined && mimeType === "application/pdf") {
        return { type: "document", source: { type: "base64", media_type: mimeType, data: blob }, title: uri };
      }
      if (blob !== undefined && mimeType !== undefined && ANTHROPIC_IMAGE_TYPES.has(mimeType)) {
        return { type: "image", source: { type: "base64", media_type: mimeType, data: blob } };
      }
      break;
    }
  }
  return { type: "text", text: blockAsText(block) };
}
