// The system prompt: the base prompt plus a section listing the active tools.
import type { AgentTool } from "../types.js";

/** Builds the prompt from the base and the active tools' names and descriptions, in active order. */
export function buildSystemPrompt(base: string, tools: Iterable<AgentTool>): string {
  const lines: string[] = [];
  for (const tool of tools) {
    const description = tool.descriptor.description.trim().split("\n")[0] ?? "";
    lines.push(`- ${tool.descriptor.name}: ${description}`);
  }
  const section =
    lines.length === 0
      ? "## Tools\n\nNo tools are available in this session."
      : `## Tools\n\nYou can call these tools:\n${lines.join("\n")}`;
  return base.trim() === "" ? section : `${base.trimEnd()}\n\n${section}`;
}
