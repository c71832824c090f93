// A server's input requests (the inputRequests of an input_required result or task) answered one by one, or the
// error that ends the call when one cannot be.
import { ToolCallError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type { JsonObject } from "../../core/types.js";
import { answerElicitation, type McpElicitationHandler } from "./answer-elicitation.js";

/** Who asks, for which call. */
export interface InputAsker {
  readonly handler: McpElicitationHandler | undefined;
  readonly serverId: string;
  /** The bridged tool's name and the server's own. */
  readonly name: string;
  readonly toolName: string;
  readonly toolCallId: string;
  readonly signal: AbortSignal;
}

const MAX_SHOWN_MESSAGE_CHARS = 300;

/**
 * Answers each request (in the server's order; one question at a time), skipping the keys in `skip`. Resolves to the
 * responses keyed as the requests were, or to the `ToolCallError` that ends the call: `approval-declined` when a
 * question was declined or cancelled (or the handler failed), `approval-required` when there is no handler,
 * `execution-failed` for a request other than an elicitation (the bridge offers no sampling and no roots).
 */
export async function answerInputRequests(
  requests: Readonly<Record<string, unknown>>,
  asker: InputAsker,
  skip: ReadonlySet<string> = new Set(),
): Promise<{ readonly responses: JsonObject } | { readonly error: ToolCallError }> {
  const { serverId, name, toolName } = asker;
  const responses: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (skip.has(key)) continue;
    const method = isRecord(request) ? request.method : undefined;
    const params = isRecord(request) && isRecord(request.params) ? (request.params as JsonObject) : undefined;
    if (method !== "elicitation/create" || params === undefined) {
      const what = typeof method === "string" ? method : "a malformed request";
      const message = `MCP server ${serverId} asked for ${what} during the call to ${toolName}, which the bridge does not answer. The call did not complete.`;
      return { error: new ToolCallError("execution-failed", name, message) };
    }
    const outcome = await answerElicitation(
      asker.handler,
      { serverId, toolName: name, toolCallId: asker.toolCallId, key, params },
      asker.signal,
    );
    if (outcome.kind === "answered") {
      responses[key] = outcome.result;
      continue;
    }
    if (outcome.kind === "failed" && outcome.error !== undefined) return { error: outcome.error };
    const asked = `MCP server ${serverId} asked during the call to ${toolName}: ${quote(params.message)}`;
    if (outcome.kind === "unanswered") {
      const message = `${asked}, but nobody can answer it: the connection has no onElicitation handler, and the call's caller no approver. The call did not complete.`;
      return { error: new ToolCallError("approval-required", name, message) };
    }
    const why =
      outcome.kind === "failed"
        ? `it could not be answered (${outcome.problem})`
        : `the person ${outcome.kind === "declined" ? "declined" : "cancelled"} it`;
    return { error: new ToolCallError("approval-declined", name, `${asked}; ${why}. The call did not complete.`) };
  }
  return { responses };
}

function quote(message: unknown): string {
  const text = typeof message === "string" ? message : "(no message)";
  return JSON.stringify(text.length > MAX_SHOWN_MESSAGE_CHARS ? `${text.slice(0, MAX_SHOWN_MESSAGE_CHARS)}…` : text);
}
