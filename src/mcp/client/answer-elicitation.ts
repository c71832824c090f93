// A server's elicitation (a question for a person) answered through the connection's onElicitation handler.
import { formDefaults } from "../../core/approve/form-defaults.js";
import { ToolCallError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type { JsonObject } from "../../core/types.js";
import { messageOf } from "./classify-call-error.js";

/** An MCP server's question for a person (`elicitation/create`), as the bridge hands it to `onElicitation`. */
export interface McpElicitation {
  readonly serverId: string;
  /**
   * The bridged tool whose call the server asks in (`<server>__<tool>`), and that call's id. Absent when it cannot be
   * told: a 2025-era server that asks while several calls of its connection run.
   */
  readonly toolName?: string;
  readonly toolCallId?: string;
  /** The request's key among the server's input requests (an input_required result's or a task's); absent in 2025. */
  readonly key?: string;
  /** The request's params as the server sent them: `message`, `requestedSchema` (a form), `mode`, `url`, ... */
  readonly params: JsonObject;
}

/** A person's answer: accept with the form's `content` (the form's defaults fill what it leaves out), decline, cancel. */
export type McpElicitationAnswer =
  | { readonly action: "accept"; readonly content?: JsonObject }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

/** Answers a server's question; `signal` aborts when the call no longer waits. */
export type McpElicitationHandler = (
  request: McpElicitation,
  context: { readonly signal: AbortSignal },
) => McpElicitationAnswer | Promise<McpElicitationAnswer>;

/**
 * What became of one question: `answered` (accepted: `result` goes to the server), or why the call cannot go on:
 * `declined` / `cancelled` by the person, `unanswered` (no handler), `failed` (the handler threw or answered
 * something else; `problem` says what). `result` is what the server is told in every case.
 */
export type ElicitationOutcome =
  | { readonly kind: "answered"; readonly result: JsonObject }
  | {
      readonly kind: "declined" | "cancelled" | "unanswered" | "failed";
      readonly result: JsonObject;
      problem?: string;
      /** The refusal of the call's caller, when it could not answer (`context.ask` rejected). */
      error?: ToolCallError;
    };

/**
 * Asks `handler` (when there is one) and reads its answer. Never throws: an answer that is not one of the three
 * actions, or a handler that throws, is `failed`, and the server is told `cancel`.
 */
export async function answerElicitation(
  handler: McpElicitationHandler | undefined,
  request: McpElicitation,
  signal: AbortSignal,
): Promise<ElicitationOutcome> {
  if (handler === undefined) return { kind: "unanswered", result: { action: "cancel" } };
  let answer: unknown;
  try {
    answer = await handler(request, { signal });
  } catch (error) {
    // The call's caller could not answer (`context.ask`): its refusal says why, with its code.
    if (error instanceof ToolCallError)
      return { kind: "failed", result: { action: "cancel" }, problem: error.message, error };
    return {
      kind: "failed",
      result: { action: "cancel" },
      problem: `the onElicitation handler threw: ${messageOf(error)}`,
    };
  }
  const action = isRecord(answer) ? answer.action : undefined;
  if (action === "decline") return { kind: "declined", result: { action: "decline" } };
  if (action === "cancel") return { kind: "cancelled", result: { action: "cancel" } };
  if (action !== "accept" || !isRecord(answer) || (answer.content !== undefined && !isRecord(answer.content))) {
    const shown = JSON.stringify(answer) ?? String(answer);
    return {
      kind: "failed",
      result: { action: "cancel" },
      problem: `the onElicitation handler answered ${shown.slice(0, 200)}, not { action: "accept" | "decline" | "cancel" }`,
    };
  }
  const content = { ...formDefaults(request.params.requestedSchema), ...(answer.content as JsonObject | undefined) };
  return { kind: "answered", result: { action: "accept", content } };
}
