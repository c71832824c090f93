// The deferred tools a transcript's tool_search calls found: what a loop going on from that transcript sends again.
import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import { toolSearchResultNames } from "../core/defer/tool-search-result-names.js";
import type { TranscriptMessage } from "../providers/clients/types.js";

/**
 * The names `tool_search` listed in a transcript, in order (repeats included): the lines `<name>: ...` of the text
 * of each successful result answering a `tool_search` call. A loop that goes on from a transcript (a resumed run,
 * `runAgent` with earlier `messages`) gives them to `session.loadDeferredTools`, so the model gets the tools it found
 * before, in the same order, in another process too.
 */
export function foundToolNames(transcript: readonly TranscriptMessage[]): string[] {
  const searches = new Set<string>();
  const names: string[] = [];
  // Read defensively: `messages` come from the caller, and a malformed entry is skipped, never thrown on.
  for (const message of transcript) {
    if (message?.role === "assistant" && Array.isArray(message.toolCalls)) {
      for (const call of message.toolCalls) if (call?.name === TOOL_SEARCH_NAME) searches.add(call.id);
    } else if (message?.role === "tool" && Array.isArray(message.results)) {
      for (const result of message.results) {
        if (searches.has(result?.tool_use_id)) names.push(...toolSearchResultNames(result));
      }
    }
  }
  return names;
}
