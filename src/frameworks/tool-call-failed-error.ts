// The error a framework adapter throws for a call that ended in an error result, where the framework reads a throw as failure.
import { ToolwireError } from "../core/errors.js";
import type { ToolCallErrorCode, ToolResult } from "../core/types.js";
import { contentAsText } from "../providers/shared.js";

/** Why a call failed: the session's error code, or `tool-error` when the tool itself returned an error result. */
export type ToolCallFailedCode = ToolCallErrorCode | "tool-error";

/**
 * A toolwire call that ended in an error result, thrown to a framework whose tools report failure by throwing
 * (pi always; LangChain when a tool is invoked without a tool call). The message is the result's text, the same
 * text `dispatch` gives the model; `result` is the whole error result, `details` included. Code `code`.
 */
export class ToolCallFailedError extends ToolwireError {
  override readonly name = "ToolCallFailedError";
  constructor(
    readonly code: ToolCallFailedCode,
    readonly toolName: string,
    readonly toolCallId: string,
    readonly result: ToolResult,
  ) {
    super(contentAsText(result.content));
  }
}
