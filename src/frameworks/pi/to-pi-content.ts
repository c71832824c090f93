// toolwire's content blocks as pi's tool result content, which carries text and images only.
import type { ContentBlock } from "../../core/types.js";
import { blockAsText } from "../../providers/shared.js";
import type { PiContent } from "./pi-agent-tool.js";

/** Text and image blocks as they are; audio, resources and links as a text block describing them (nothing dropped). */
export function toPiContent(content: readonly ContentBlock[]): PiContent {
  return content.map((block) => {
    if (block.type === "text") return { type: "text", text: block.text };
    if (block.type === "image") return { type: "image", data: block.data, mimeType: block.mimeType };
    return { type: "text", text: blockAsText(block) };
  });
}
