// A toolwire result's content as the AI SDK's tool output for the model: text, or content parts with images.
import type { ToolResultPart } from "ai";
import type { ContentBlock } from "../../core/types.js";
import { blockAsText } from "../../providers/shared.js";

/** The AI SDK's `ToolResultOutput` (what `toModelOutput` returns): the output of a `tool-result` part. */
export type AiSdkToolResultOutput = ToolResultPart["output"];
type ContentPart = Extract<AiSdkToolResultOutput, { type: "content" }>["value"][number];

/**
 * What the model is shown of a result's content: `{ type: "text" }` with the blocks' texts joined by newlines
 * when every block reads as text (text blocks, text resources); otherwise `{ type: "content" }` with images
 * (and embedded image blobs) as `image-data` parts and every other block as a text part (audio, other blobs
 * and resource links described in a line, as toolwire's provider adapters describe them).
 */
export function toAiSdkModelOutput(content: readonly ContentBlock[]): AiSdkToolResultOutput {
  const parts = content.map(toContentPart);
  if (parts.every((part) => part.type === "text")) {
    return { type: "text", value: parts.map((part) => (part as { text: string }).text).join("\n") };
  }
  return { type: "content", value: parts };
}

function toContentPart(block: ContentBlock): ContentPart {
  if (block.type === "image") return { type: "image-data", data: block.data, mediaType: block.mimeType };
  if (block.type === "resource") {
    const { blob, mimeType } = block.resource;
    if (blob !== undefined && mimeType?.startsWith("image/") === true) {
      return { type: "image-data", data: blob, mediaType: mimeType };
    }
  }
  return { type: "text", text: blockAsText(block) };
}
