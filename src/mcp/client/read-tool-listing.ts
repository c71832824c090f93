// A server's tools/list, read into bridged tools: broken entries skipped with a reason, names assigned, unchanged tools
// reused.
import type { Tool as McpTool } from "@modelcontextprotocol/client";
import { ToolDefinitionError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type { AgentTool } from "../../core/types.js";
import { messageOf } from "./classify-call-error.js";
import { assignMcpToolNames } from "./tool-names.js";

/** A listed tool that could not be bridged, and why. */
export interface SkippedMcpTool {
  readonly toolName: string;
  readonly reason: string;
}

/** Bridged tools by name and definition: the same name and definition gives back the same `AgentTool`. */
export type BridgedToolCache = ReadonlyMap<string, AgentTool>;

/**
 * Reads every page's entries, in the server's order: an entry without a name or an object
 * `inputSchema`, or one `bridge` refuses, is skipped with the reason; the rest that `keep` keeps get
 * their names (`assignMcpToolNames`) and an `AgentTool`, the one in `cache` when nothing changed.
 */
export function readToolListing(
  serverId: string,
  listing: readonly unknown[],
  keep: (toolName: string) => boolean,
  cache: BridgedToolCache,
  bridge: (name: string, tool: McpTool) => AgentTool,
): { readonly tools: AgentTool[]; readonly skipped: SkippedMcpTool[]; readonly cache: BridgedToolCache } {
  const skipped: SkippedMcpTool[] = [];
  const listed: McpTool[] = [];
  for (const tool of listing) {
    const problem = toolShapeProblem(tool);
    if (problem === undefined) listed.push(tool as McpTool);
    else skipped.push({ toolName: nameOf(tool), reason: problem });
  }
  const wanted = listed.filter((tool) => keep(tool.name));
  const names = assignMcpToolNames(
    serverId,
    wanted.map((tool) => tool.name),
  );
  const nextCache = new Map<string, AgentTool>();
  const tools: AgentTool[] = [];
  wanted.forEach((tool, index) => {
    const name = names[index] as string;
    const key = `${name}\u0000${JSON.stringify(tool)}`;
    let agentTool = cache.get(key) ?? nextCache.get(key);
    if (agentTool === undefined) {
      try {
        agentTool = bridge(name, tool);
      } catch (error) {
        skipped.push({
          toolName: tool.name,
          reason: error instanceof ToolDefinitionError ? error.message : messageOf(error),
        });
        return;
      }
    }
    nextCache.set(key, agentTool);
    tools.push(agentTool);
  });
  return { tools, skipped, cache: nextCache };
}

/** Why a listed tool cannot be read at all, or `undefined`. */
function toolShapeProblem(tool: unknown): string | undefined {
  if (!isRecord(tool)) return "the listing entry is not an object";
  if (typeof tool.name !== "string" || tool.name === "") return "it has no name";
  if (!isRecord(tool.inputSchema)) return "its inputSchema is not a JSON Schema object";
  return undefined;
}

function nameOf(tool: unknown): string {
  return isRecord(tool) && typeof tool.name === "string" ? tool.name : "(unnamed)";
}
