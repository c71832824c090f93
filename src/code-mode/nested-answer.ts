// A nested call's outcome as its program sees it: the structured value or the text, or an error with a code.
import { isRecord } from "../core/json.js";
import type { ContentBlock, JsonValue, ToolCallOutcome } from "../core/types.js";
import type { NestedCallAnswer } from "./engine/types.js";

/**
 * What `await tools.x(input)` gives: the result's `structuredContent` (an MCP tool's, or `details.structuredContent`
 * of any tool) when it has one, else its text blocks joined by newlines, other blocks as placeholders. A failed call
 * (refused, thrown, timed out, or a result the tool marked `isError`) is an error whose code is the call's error code,
 * or `tool-error`, and whose message is the result's text.
 */
export function answerFromOutcome(outcome: ToolCallOutcome): NestedCallAnswer {
  const { result, errorCode } = outcome;
  const text = resultText(result.content);
  if (errorCode !== undefined || result.isError === true) {
    return { ok: false, code: errorCode ?? "tool-error", message: text };
  }
  // The session made the result plain JSON already: a getter or a cycle in what the tool returned never gets here.
  const structured = isRecord(result.details) ? result.details.structuredContent : undefined;
  return { ok: true, value: isRecord(structured) ? (structured as JsonValue) : text };
}

/** The text of a result's blocks: text as is, anything else as a short placeholder such as `[image image/png]`. */
export function resultText(content: readonly ContentBlock[]): string {
  return content.map(blockText).join("\n");
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}]`;
    case "resource":
      return "text" in block.resource && typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource ${block.resource.uri}]`;
    case "resource_link":
      return `[resource link ${block.uri}]`;
    default:
      return "[content]";
  }
}
