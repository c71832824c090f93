// Maps a bridged MCP tool's result to a toolwire result: the five block types one to one, as sent (docs/mcp.md).
import { isRecord } from "../../core/json.js";
import { describeContentProblem } from "../../core/tool-result.js";
import type { ContentBlock, ToolResult } from "../../core/types.js";

/** The part of an MCP `CallToolResult` the bridge reads; every field is untrusted. */
interface McpCallToolResultLike {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
}

/** What a bridged tool's result carries for programs (never sent to the model). */
export interface McpToolResultDetails {
  /** The server's `structuredContent`, as sent. */
  readonly structuredContent?: unknown;
  /** The blocks of an unknown type or of a malformed shape, as sent: the model sees them described in text. */
  readonly otherContent?: readonly unknown[];
}

/**
 * Text, image, audio, embedded resource and resource link blocks map to the same content blocks, as sent
 * (`annotations` and `_meta` included); a block of an unknown type or a malformed one becomes a text block
 * describing it (kept whole in `details.otherContent`);
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
    if (mapped !== block) otherContent.push(block);
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

/**
 * One MCP content block as a toolwire content block: a valid block of the five types is the block itself,
 * unchanged; anything else is a text block saying what it was and what is wrong with it.
 */
function mapContentBlock(block: unknown): ContentBlock {
  const problem = describeContentProblem(block);
  if (problem === undefined) return block as ContentBlock;
  if (!isRecord(block)) return { type: "text", text: `[malformed content block: ${preview(block)}]` };
  const known = ["text", "image", "audio", "resource", "resource_link"].includes(block.type as string);
  return {
    type: "text",
    text: known
      ? `[malformed ${preview(block.type)} content block (${problem}): ${preview(block)}]`
      : `[unsupported ${preview(block.type)} content block: ${preview(block)}]`,
  };
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
