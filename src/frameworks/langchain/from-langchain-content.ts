// A LangChain tool's output (a ToolMessage's content, or whatever its function returned) as toolwire's content blocks.
import { isRecord } from "../../core/json.js";
import type { ContentBlock } from "../../core/types.js";
import { jsonText } from "../json-text.js";

/**
 * LangChain content as toolwire blocks: a string is one text block; in a list, a string or a `text` block is text,
 * an `image` or `audio` block with base64 `data` (or a `data:` URL in `url`, or the older `source_type: "base64"`
 * and `image_url` shapes) is an image or audio block, an image by URL is a resource link, a `text-plain` block is its
 * text. Anything else (other block types, objects, numbers) becomes a text block of its JSON, so nothing is dropped.
 */
export function fromLangChainContent(content: unknown): ContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [{ type: "text", text: jsonText(content) }];
  return content.map(fromBlock);
}

function fromBlock(block: unknown): ContentBlock {
  if (typeof block === "string") return { type: "text", text: block };
  if (!isRecord(block)) return { type: "text", text: jsonText(block) };
  const { type } = block;
  if (type === "text" && typeof block.text === "string") return { type: "text", text: block.text };
  if (type === "text-plain" && typeof block.text === "string") return { type: "text", text: block.text };
  if (type === "image" || type === "audio") {
    const data = base64Of(block.data);
    const mimeType = stringOr(block.mimeType, block.mime_type);
    if (data !== undefined && mimeType !== undefined) return { type, data, mimeType };
    const url = typeof block.url === "string" ? block.url : undefined;
    if (url !== undefined) return fromUrl(type, url, mimeType);
  }
  if (type === "image_url") {
    const url =
      typeof block.image_url === "string"
        ? block.image_url
        : isRecord(block.image_url)
          ? block.image_url.url
          : undefined;
    if (typeof url === "string") return fromUrl("image", url, undefined);
  }
  return { type: "text", text: jsonText(block) };
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function fromUrl(type: "image" | "audio", url: string, mimeType: string | undefined): ContentBlock {
  const match = DATA_URL.exec(url);
  if (match !== null) return { type, data: match[2] ?? "", mimeType: match[1] ?? "application/octet-stream" };
  const name = url.slice(url.lastIndexOf("/") + 1) || url;
  return mimeType === undefined
    ? { type: "resource_link", uri: url, name }
    : { type: "resource_link", uri: url, name, mimeType };
}

function base64Of(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return Buffer.from(data).toString("base64");
  return undefined;
}

function stringOr(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === "string") return value;
  return undefined;
}
