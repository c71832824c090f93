// toolwire's content blocks as a LangChain ToolMessage's content: a string when it is all text, else standard blocks.
import type { ContentBlock as LangChainContentBlock, MessageContent } from "@langchain/core/messages";
import { describeResourceLink } from "../../core/tool-result.js";
import type { ContentBlock } from "../../core/types.js";

/**
 * The content as LangChain carries it. Text, text resources and resource links (as a line naming the link) make one
 * string, joined by newlines, when nothing else is there: what every chat model integration accepts. Otherwise a list
 * of LangChain's standard content blocks: `text`, base64 `image` and `audio` with `mimeType`, a binary resource as a
 * `file` block (its URI in `metadata.uri`), which each chat model integration converts to its provider's format.
 */
export function toLangChainContent(content: readonly ContentBlock[]): MessageContent {
  const texts = content.map(textOf);
  if (texts.every((text) => text !== undefined)) return texts.join("\n");
  return content.map((block, index): LangChainContentBlock => {
    const text = texts[index];
    if (text !== undefined) return { type: "text", text };
    if (block.type === "image" || block.type === "audio") {
      return { type: block.type, data: block.data, mimeType: block.mimeType };
    }
    const resource = (block as Extract<ContentBlock, { type: "resource" }>).resource;
    return {
      type: "file",
      data: resource.blob ?? "",
      mimeType: resource.mimeType ?? "application/octet-stream",
      metadata: { uri: resource.uri },
    };
  });
}

function textOf(block: ContentBlock): string | undefined {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource":
      return block.resource.text;
    case "resource_link":
      return describeResourceLink(block);
    default:
      return undefined;
  }
}
