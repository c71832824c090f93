// toolwire content as MCP content for a served tool's result: the five block types one to one (docs/mcp.md).
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ContentBlock } from "../../core/types.js";

/** toolwire content as MCP content: the same blocks, unchanged (they were checked when the tool returned them). */
export function toMcpContent(content: readonly ContentBlock[]): CallToolResult["content"] {
  return content.map((block) => ({ ...block })) as CallToolResult["content"];
}
