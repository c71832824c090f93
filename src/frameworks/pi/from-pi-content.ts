// pi's tool result content as toolwire's content blocks.

import { isRecord } from "../../core/json.js";
import type { ContentBlock } from "../../core/types.js";
import { jsonText } from "../json-text.js";

/**
 * pi's text and image blocks as toolwire's (a text block's `textSignature` dropped); anything else, which a pi tool
 * should not return, as a text block of its JSON so that nothing is dropped silently. Not an array: one text block of
 * its JSON.
 */
export function fromPiContent(content: unknown): ContentBlock[] {
  if (!Array.isArray(content)) return [{ type: "text", text: jsonText(content) }];
  return content.map((block: unknown): ContentBlock => {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") {
      return { type: "text", text: block.text };
    }
    if (
      isRecord(block) &&
      block.type === "image" &&
      typeof block.data === "string" &&
      typeof block.mimeType === "string"
    ) {
      return { type: "image", data: block.data, mimeType: block.mimeType };
    }
    return { type: "text", text: jsonText(block) };
  });
}
