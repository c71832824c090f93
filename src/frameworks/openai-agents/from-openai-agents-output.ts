// What an OpenAI Agents SDK tool returned, as a toolwire result: text, images, files.
import { isRecord } from "../../core/json.js";
import type { ContentBlock, ToolResult } from "../../core/types.js";

/**
 * What the Agents SDK's tools answer, without an `errorFunction` of their own, when they fail: a fixed text
 * that hides the error (the SDK's default). A toolwire result with this text is marked `isError`.
 */
export const OPENAI_AGENTS_DEFAULT_ERROR_TEXT = "An error occurred while running the tool. Please try again.";

/**
 * A toolwire result for what a function tool's `invoke` returned, read as the Agents SDK reads it: a string as
 * text (the SDK's default failure text marked `isError`); a structured output (`{ type: "text" | "image" |
 * "file" }`) or a list of them part by part (inline images as image blocks, inline files as embedded resources,
 * URLs as resource links, provider file ids described in a line); anything else as its JSON text. `details` is
 * the raw output unless it was a string.
 */
export function fromOpenAIAgentsOutput(output: unknown): ToolResult {
  if (typeof output === "string") {
    const content: ContentBlock[] = [{ type: "text", text: output }];
    return output === OPENAI_AGENTS_DEFAULT_ERROR_TEXT ? { content, isError: true } : { content };
  }
  const items = Array.isArray(output) ? output : [output];
  const blocks = items.length === 0 ? undefined : items.map(fromStructuredOutput);
  const content: ContentBlock[] = blocks?.every((block) => block !== undefined)
    ? (blocks as ContentBlock[])
    : [{ type: "text", text: JSON.stringify(output ?? null) ?? String(output) }];
  return output === undefined ? { content } : { content, details: output };
}

function fromStructuredOutput(item: unknown): ContentBlock | undefined {
  if (!isRecord(item)) return undefined;
  if (item.type === "text" && typeof item.text === "string") return { type: "text", text: item.text };
  if (item.type === "image") return fromImage(item.image ?? item, stringOr(item.mediaType));
  if (item.type === "file") return fromFile(item.file);
  return undefined;
}

function fromImage(image: unknown, mediaType: string | undefined): ContentBlock | undefined {
  if (typeof image === "string") return fromDataUrl(image, "image") ?? linkTo(image, undefined);
  if (!isRecord(image)) return undefined;
  const type = stringOr(image.mediaType) ?? mediaType;
  if (typeof image.url === "string") return linkTo(image.url, type);
  const data = base64Of(image.data);
  if (data !== undefined) {
    return fromDataUrl(data, "image") ?? (type === undefined ? undefined : { type: "image", data, mimeType: type });
  }
  const fileId = stringOr(image.fileId) ?? stringOr(image.id);
  return fileId === undefined ? undefined : { type: "text", text: `[provider file ${fileId}; not shown here]` };
}

function fromFile(file: unknown): ContentBlock | undefined {
  if (typeof file === "string") return fromDataUrl(file, "file") ?? linkTo(file, undefined);
  if (!isRecord(file)) return undefined;
  const filename = stringOr(file.filename);
  if (typeof file.url === "string") return linkTo(file.url, undefined, filename);
  const data = base64Of(file.data);
  const mimeType = stringOr(file.mediaType);
  if (data !== undefined) {
    return {
      type: "resource",
      resource: { uri: filename ?? "file", ...(mimeType === undefined ? {} : { mimeType }), blob: data },
    };
  }
  const id = stringOr(file.id);
  return id === undefined ? undefined : { type: "text", text: `[provider file ${id}; not shown here]` };
}

/** A `data:<type>;base64,<data>` URL as an image (or, for a file, an embedded resource) block. */
function fromDataUrl(text: string, as: "image" | "file"): ContentBlock | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(text);
  if (match === null) return undefined;
  const [, mimeType = "", data = ""] = match;
  if (as === "image" || mimeType.startsWith("image/")) return { type: "image", data, mimeType };
  return { type: "resource", resource: { uri: "file", mimeType, blob: data } };
}

function linkTo(url: string, mimeType: string | undefined, name?: string): ContentBlock {
  const path = url.replace(/[?#].*$/, "");
  return {
    type: "resource_link",
    uri: url,
    name: name ?? (path.slice(path.lastIndexOf("/") + 1) || url),
    ...(mimeType === undefined ? {} : { mimeType }),
  };
}

function base64Of(data: unknown): string | undefined {
  if (typeof data === "string" && data !== "") return data;
  if (data instanceof Uint8Array && data.length > 0) return Buffer.from(data).toString("base64");
  return undefined;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
