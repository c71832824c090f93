// The error a framework's tool throws when toolwire's dispatch answered with an error result.
import { ToolwireError } from "../core/errors.js";
import type { ToolCallErrorCode, ToolCallOutcome, ToolResult } from "../core/types.js";
import { contentAsText } from "../providers/shared.js";

/** Why a call failed: toolwire's error code, or `tool-error` when the tool itself returned an error result. */
export type ToolCallFailedCode = ToolCallErrorCode | "tool-error";

/**
 * A tool call that toolwire answered with an error result (unknown tool, bad input, blocked by a hook, an executor
 * that threw, a timeout, an approval refused, or the tool's own `isError`), thrown to a framework whose tools report
 * failure by throwing: the AI SDK and the OpenAI Agents SDK always, pi 0.73 (pi 1 gets an `isError` result), LangChain
 * when a tool is invoked without a tool call. Its message is the result's text, the same text `dispatch` gives the
 * model; `code` is the dispatch's `errorCode` (or `tool-error`), `outcome` the whole `dispatchDetailed` answer, and
 * `result` its result, `details` included.
 */
export class ToolCallFailedError extends ToolwireError<ToolCallFailedCode> {
  override readonly name = "ToolCallFailedError";
  constructor(
    readonly toolName: string,
    readonly toolCallId: string,
    readonly outcome: ToolCallOutcome,
  ) {
    super(outcome.errorCode ?? "tool-error", contentAsText(outcome.result.content));
  }

  /**
   * The text for the model alone, without the usual `ToolCallFailedError: ` prefix: the AI SDK 7 shows the model a
   * thrown error as `String(error)` (6 used its message), and the model should get toolwire's text under both.
   */
  override toString(): string {
    return this.message;
  }

  /** The error result, `details` included. */
  get result(): ToolResult {
    return this.outcome.result;
  }
}

/** Whether an outcome is an error result (refused, failed, or the tool's own `isError`). */
export function isFailedOutcome(outcome: ToolCallOutcome): boolean {
  return outcome.block.is_error === true;
}
