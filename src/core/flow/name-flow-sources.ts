// The calls that brought untrusted content, named for a person: for refusals and approval questions.
import type { FlowSource } from "../types.js";

/** `page (c1), mail (c2)`: the first five sources by tool and call id, then how many more. */
export function nameFlowSources(sources: readonly FlowSource[]): string {
  const named = sources
    .slice(0, 5)
    .map((source) => `${source.toolName} (${source.toolCallId})`)
    .join(", ");
  return sources.length > 5 ? `${named} and ${sources.length - 5} more` : named;
}
