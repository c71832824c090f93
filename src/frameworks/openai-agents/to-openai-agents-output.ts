// A toolwire result's content as an OpenAI Agents SDK tool output: text, or structured parts with images and files.
import type { ToolCallOutputContent } from "@openai/agents-core";
import type { ContentBlock } from "../../core/types.js";
import { blockAsText, resourceFileName } from "../../providers/shared.js";

/**
 * What a tool of the Agents SDK returns for a result's content, shaped as toolwire's OpenAI Responses adapter
 * shapes it: one string, the blocks' texts joined by newlines, when every block reads as text (text blocks,
 * text resources); otherwise a list of structured outputs with images (and embedded image blobs) as `image`
 * parts, an embedded PDF as a `file` part named after its URI, and every other block as a `text` part (audio,
 * other blobs and resource links described in a line).
 */
export function toOpenAIAgentsOutput(content: readonly ContentBlock[]): string | ToolCallOutputContent[] {
  const parts = content.map(toOutputPart);
  if (parts.every((part) => part.type === "text")) {
    return parts.map((part) => (part as { text: string }).text).join("\n");
  }
  return parts;
}

function toOutputPart(block: ContentBlock): ToolCallOutputContent {
  if (block.type === "image") return { type: "image", image: { data: block.data, mediaType: block.mimeType } };
  if (block.type === "resource") {
    const { uri, mimeType, blob } = block.resource;
    if (blob !== undefined && mimeType?.startsWith("image/") === true) {
      return { type: "image", image: { data: blob, mediaType: mimeType } };
    }
    if (blob !== undefined && mimeType === "application/pdf") {
      return {
        type: "file",
        file: { data: blob, mediaType: mimeType, filename: resourceFileName(uri, "resource.pdf") },
      };
    }
  }
  return { type: "text", text: blockAsText(block) };
}
