// Tool sources: plain tools and live sources (MCP connections, plugin hosts) read at every refresh.
import { isRecord } from "../json.js";
import type { AgentTool, LiveToolSource, ToolSource, ToolSourceInput } from "../types.js";

/** Whether an entry of a source list is a live source rather than a tool. */
function isLiveToolSource(entry: AgentTool | LiveToolSource): entry is LiveToolSource {
  return isRecord(entry) && !("descriptor" in entry) && "tools" in entry;
}

/** One tool as read from a source, in registration order. */
export interface SourcedTool {
  readonly tool: AgentTool;
  readonly source: ToolSource;
}

/** Reads every source's current tools, in order: built-ins, extensions, custom. */
export function collectSourcedTools(sources: readonly [ToolSource, ToolSourceInput | undefined][]): SourcedTool[] {
  const out: SourcedTool[] = [];
  for (const [source, entries] of sources) {
    for (const entry of entries ?? []) {
      if (isLiveToolSource(entry)) {
        for (const tool of entry.tools) out.push({ tool, source });
      } else {
        out.push({ tool: entry, source });
      }
    }
  }
  return out;
}

/** The live sources among the registry's sources. */
export function liveSourcesOf(sources: readonly (ToolSourceInput | undefined)[]): Set<LiveToolSource> {
  const live = new Set<LiveToolSource>();
  for (const entries of sources) {
    for (const entry of entries ?? []) if (isLiveToolSource(entry)) live.add(entry);
  }
  return live;
}
