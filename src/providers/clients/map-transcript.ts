// The walk every model client makes over a transcript: user text, assistant turns, tool results paired with their
// calls.
import type { ToolResultBlock } from "../../core/types.js";
import type { ToolCall } from "../types.js";
import type { TranscriptMessage } from "./types.js";

type AssistantMessage = Extract<TranscriptMessage, { role: "assistant" }>;

/** How one provider writes each kind of transcript message; each returns the items it adds. */
interface TranscriptMapping {
  /** Default: `{ role: "user", content: text }`. */
  user?(text: string): readonly unknown[];
  assistant(message: AssistantMessage): readonly unknown[];
  /** The results of the tool calls of the assistant message just before them. */
  results(results: readonly ToolResultBlock[], calls: readonly ToolCall[]): readonly unknown[];
}

/** A transcript as a provider's message list; user messages are `{ role: "user", content: text }` unless mapped. */
export function mapTranscript(messages: readonly TranscriptMessage[], mapping: TranscriptMapping): unknown[] {
  const out: unknown[] = [];
  let calls: readonly ToolCall[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      if (mapping.user === undefined) out.push({ role: "user", content: message.text });
      else append(out, mapping.user(message.text));
    } else if (message.role === "assistant") {
      calls = message.toolCalls;
      append(out, mapping.assistant(message));
    } else {
      append(out, mapping.results(message.results, calls));
    }
  }
  return out;
}

/** `out.push(...items)` without spreading arguments (cheaper for the one or two items a message gives). */
function append(out: unknown[], items: readonly unknown[]): void {
  for (const item of items) out.push(item);
}
