// The error a framework's tool throws when toolwire's dispatch answered with an error result.
import type { ToolCallErrorCode, ToolCallOutcome } from "../core/types.js";
import { contentAsText } from "../providers/shared.js";

/** Why a call failed: toolwire's error code, or `error-result` when the tool itself returned `isError`. */
export type ToolCallFailedCode = ToolCallErrorCode | "error-result";

/**
 * A tool call that toolwire answered with an error result (unknown tool, bad input, blocked by a hook, an
 * executor that threw, a timeout, an approval refused). Its message is the result's text, written for the
 * model; `code` is the dispatch's `errorCode` (or `error-result`), and `outcome` the whole `dispatchDetailed`
 * answer, `details` included. Thrown by the tools of `toAiSdkTools` and `toOpenAIAgentsTools`.
 */
export class ToolCallFailedError extends Error {
  override readonly name = "ToolCallFailedError";
  readonly code: ToolCallFailedCode;
  constructor(
    readonly toolName: string,
    readonly toolCallId: string,
    readonly outcome: ToolCallOutcome,
  ) {
    super(contentAsText(outcome.result.content));
    this.code = outcome.errorCode ?? "error-result";
  }
}

/** Whether an outcome is an error result (refused, failed, or the tool's own `isError`). */
export function isFailedOutcome(outcome: ToolCallOutcome): boolean {
  return outcome.block.is_error === true;
}
