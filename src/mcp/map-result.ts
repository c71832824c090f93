// Maps an MCP CallToolResult to a toolwire ToolResult: text and images as they are, everything else described in text.
import type { ContentBlock, ToolResult } from "../core/types.js";

/** The part of an MCP `CallToolResult` the bridge reads; every field is untrusted. */
export interface McpCallToolResultLike {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
}

/** What a bridged tool's result carries for programs (never sent to the model). */
export interface McpToolResultDetails {
  /** The server's `structuredContent`, as sent. */
  readonly structuredContent?: unknown;
  /** The content blocks that the model only sees described in text (audio, resources, links, unknown types), as sent. */
  readonly otherContent?: readonly unknown[];
}

/**
 * Text and image blocks map to content blocks; audio, embedded resources, resource links and
 * unknown block types become a text block describing them (kept whole in `details.otherContent`);
 * `structuredContent` goes to `details.structuredContent` (and, when the server sent no content,
 * to a text block as JSON, so the model sees it); MCP `isError` makes an error result.
 */
export function mapCallToolResult(
  result: McpCallToolResultLike,
  where: { serverId: string; toolName: string },
): ToolResult<McpToolResultDetails> {
  const content: ContentBlock[] = [];
  const otherContent: unknown[] = [];
  const blocks = Array.isArray(result.content) ? result.content : [];
  for (const block of blocks) {
    const mapped = mapContentBlock(block);
    content.push(mapped);
    if (!isPlainBlock(block)) otherContent.push(block);
  }
  const hasStructured = result.structuredContent !== undefined && result.structuredContent !== null;
  if (content.length === 0 && hasStructured) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  const isError = result.isError === true;
  if (content.length === 0 && isError) {
    content.push({
      type: "text",
      text: `MCP server ${where.serverId} reported an error for tool ${where.toolName} without saying more`,
    });
  }
  const details: { structuredContent?: unknown; otherContent?: unknown[] } = {};
  if (hasStructured) details.structuredContent = result.structuredContent;
  if (otherContent.length > 0) details.otherContent = otherContent;
  const mapped: ToolResult<McpToolResultDetails> = { content };
  if (hasStructured || otherContent.length > 0) mapped.details = details;
  if (isError) mapped.isError = true;
  return mapped;
}

function isPlainBlock(block: unknown): boolean {
  if (!isRecord(block)) return false;
  if (block.type === "text") return typeof block.text === "string";
  if (block.type === "image") return typeof block.data === "string" && typeof block.mimeType === "string";
  return false;
}

/** One MCP content block as a toolwire content block. */
export function mapContentBlock(block: unknown): ContentBlock {
  if (!isRecord(block)) return { type: "text", text: `[malformed content block: ${preview(block)}]` };
  switch (block.type) {
    case "text":
      if (typeof block.text === "string") return { type: "text", text: block.text };
      break;
    case "image":
      if (typeof block.data === "string" && typeof block.mimeType === "string") {
        return { type: "image", data: block.data, mimeType: block.mimeType };
      }
      break;
    case "audio":
      return {
        type: "text",
        text: `[audio: ${stringOr(block.mimeType, "unknown type")}, ${base64Bytes(block.data)} bytes, not shown]`,
      };
    case "resource_link":
      return { type: "text", text: describeResourceLink(block) };
    case "resource":
      return { type: "text", text: describeEmbeddedResource(block.resource) };
  }
  return { type: "text", text: `[unsupported ${preview(block.type)} content block: ${preview(block)}]` };
}

function describeResourceLink(block: Record<string, unknown>): string {
  const name = stringOr(block.title, stringOr(block.name, ""));
  const parts = [`[resource link: ${stringOr(block.uri, "(no uri)")}`];
  if (name !== "") parts.push(` "${name}"`);
  if (typeof block.mimeType === "string") parts.push(` (${block.mimeType})`);
  if (typeof block.description === "string") parts.push(`: ${block.description}`);
  return `${parts.join("")}]`;
}

function describeEmbeddedResource(resource: unknown): string {
  if (!isRecord(resource)) return `[malformed embedded resource: ${preview(resource)}]`;
  const head = `[resource ${stringOr(resource.uri, "(no uri)")}${typeof resource.mimeType === "string" ? ` (${resource.mimeType})` : ""}`;
  if (typeof resource.text === "string") return `${head}]\n${resource.text}`;
  if (typeof resource.blob === "string")
    return `${head}: ${base64Bytes(resource.blob)} bytes of binary data, not shown]`;
  return `${head}]`;
}

function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
