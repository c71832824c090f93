// The tools one tool_search result listed, read back from its pinned text format (docs/deferred-tools.md).
import type { ToolResultBlock } from "../types.js";

const LISTED_TOOL = /^([A-Za-z0-9_-]{1,64}): /;

/**
 * The names a `tool_search` result listed, best first: the `<name>` of each line `<name>: ...` of its text blocks.
 * `[]` for an error result, a search that found nothing, or anything that is not a result. It reads the text, not
 * `details`, because a transcript (saved, resumed, handed to a provider adapter) keeps only the result's content.
 */
export function toolSearchResultNames(result: ToolResultBlock): string[] {
  if (result?.is_error === true || !Array.isArray(result?.content)) return [];
  const names: string[] = [];
  for (const block of result.content) {
    if (block?.type !== "text" || typeof block.text !== "string") continue;
    for (const line of block.text.split("\n")) {
      const match = LISTED_TOOL.exec(line);
      if (match !== null) names.push(match[1] as string);
    }
  }
  return names;
}
