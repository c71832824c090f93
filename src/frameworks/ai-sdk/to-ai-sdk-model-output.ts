// A toolwire result's content as the AI SDK's tool output for the model: text, or content parts with images.
import type { ToolResultPart } from "ai";
import type { ContentBlock } from "../../core/types.js";
import { blockAsText } from "../../providers/shared.js";

/** The AI SDK's `ToolResultOutput` (what `toModelOutput` returns): the output of a `tool-result` part. */
export type AiSdkToolResultOutput = ToolResultPart["output"];
type ContentPart = Extract<AiSdkToolResultOutput, { type: "content" }>["value"][number];

/** What `toAiSdkModelOutput` takes besides the content. */
export interface ToAiSdkModelOutputOptions {
  /**
   * How an image is written: `"image-data"` (the default; the AI SDK 6 part, deprecated in 7) or `"file"`
   * (`{ type: "file", mediaType, data: { type: "data", data } }`, the AI SDK 7 part, which 6 does not know).
   */
  readonly images?: "image-data" | "file";
}

/**
 * What the model is shown of a result's content: `{ type: "text" }` with the blocks' texts joined by newlines
 * when every block reads as text (text blocks, text resources); otherwise `{ type: "content" }` with images
 * (and embedded image blobs) as `image-data` parts (or `file` parts, see `images`) and every other block as a
 * text part (audio, other blobs and resource links described in a line, as toolwire's provider adapters describe them).
 */
export function toAiSdkModelOutput(
  content: readonly ContentBlock[],
  options: ToAiSdkModelOutputOptions = {},
): AiSdkToolResultOutput {
  const image = options.images === "file" ? fileImage : dataImage;
  const parts = content.map((block) => toContentPart(block, image));
  if (parts.every((part) => part.type === "text")) {
    return { type: "text", value: parts.map((part) => (part as { text: string }).text).join("\n") };
  }
  return { type: "content", value: parts };
}

function toContentPart(block: ContentBlock, image: (data: string, mediaType: string) => ContentPart): ContentPart {
  if (block.type === "image") return image(block.data, block.mimeType);
  if (block.type === "resource") {
    const { blob, mimeType } = block.resource;
    if (blob !== undefined && mimeType?.startsWith("image/") === true) return image(blob, mimeType);
  }
  return { type: "text", text: blockAsText(block) };
}

function dataImage(data: string, mediaType: string): ContentPart {
  return { type: "image-data", data, mediaType };
}

// The AI SDK 7 part; the types here are those of the AI SDK 6 (a dev dependency), which has no such part.
function fileImage(data: string, mediaType: string): ContentPart {
  return { type: "file", mediaType, data: { type: "data", data } } as unknown as ContentPart;
}
