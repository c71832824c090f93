// The wire side of held calls (held-calls.ts): a question as an input_required result naming the held call in its
// requestState, and the retry that answers it.
import { type CallToolResult, inputRequired, inputResponse, type ServerContext } from "@modelcontextprotocol/server";
import { isRecord } from "../../core/json.js";
import type { JsonObject } from "../../core/types.js";
import { elicitParams } from "./ask-over-mcp.js";
import { type HeldCall, type HeldStep, heldCallsOf } from "./held-calls.js";

/** The key of a held call's question among an input_required result's requests. */
const QUESTION_KEY = "toolwire_question";

/** The held call's id, when `state` is the requestState of a held call's question; else `undefined`. */
export function readHeldState(state: unknown): string | undefined {
  if (typeof state !== "string") return undefined;
  try {
    const read: unknown = JSON.parse(Buffer.from(state, "base64url").toString("utf8"));
    return isRecord(read) && typeof read.held === "string" ? read.held : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the client hears next from `held`: its question as input_required, or its result. Aborting the request that
 * waits for it (`signal`) aborts the call.
 */
export async function heldCallStep(held: HeldCall, signal: AbortSignal): Promise<CallToolResult> {
  const onAbort = () => held.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  let step: HeldStep;
  try {
    step = await held.next();
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  if (step.kind === "done") return step.result;
  if (step.kind === "failed") throw step.error;
  return inputRequired({
    inputRequests: { [QUESTION_KEY]: inputRequired.elicit(elicitParams(step.question) as never) },
    requestState: Buffer.from(JSON.stringify({ held: held.id }), "utf8").toString("base64url"),
  }) as unknown as CallToolResult;
}

/** A retry carrying the answer to a held call's question: the answer goes in, and the next step comes back. */
export function answerHeldCall(
  session: object,
  toolName: string,
  heldId: string,
  ctx: ServerContext,
): Promise<CallToolResult> | CallToolResult {
  const held = heldCallsOf(session).find(heldId);
  if (held === undefined || held.toolName !== toolName) {
    const text = `The call to ${toolName} that this answer is for is no longer waiting here: it ended, waited too long, or runs in another process. Nothing was run again.`;
    return { content: [{ type: "text", text }], isError: true };
  }
  const view = inputResponse(ctx.mcpReq.inputResponses, QUESTION_KEY);
  held.answer(
    view.kind !== "elicit"
      ? { action: "cancel" }
      : view.action === "accept"
        ? { action: "accept", ...(isRecord(view.content) ? { content: view.content as JsonObject } : {}) }
        : { action: view.action },
  );
  return heldCallStep(held, ctx.mcpReq.signal);
}
