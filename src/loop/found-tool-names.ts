// The deferred tools a transcript's tool_search calls found: what a loop going on from that transcript sends again.
import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import type { TranscriptMessage } from "../providers/clients/types.js";

const LISTED_TOOL = /^([A-Za-z0-9_-]{1,64}): /;

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
        if (!searches.has(result?.tool_use_id) || result.is_error === true || !Array.isArray(result.content)) continue;
        for (const block of result.content) {
          if (block?.type !== "text" || typeof block.text !== "string") continue;
          for (const line of block.text.split("\n")) {
            const match = LISTED_TOOL.exec(line);
            if (match !== null) names.push(match[1] as string);
          }
        }
      }
    }
  }
  return names;
}
