// The wire side of held calls (held-calls.ts): a question as an input_required result naming the held call and the
// round in its requestState, and the retry that answers it.
import {
  type CallToolResult,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isRecord } from "../../core/json.js";
import type { JsonObject, ToolQuestionAnswer } from "../../core/types.js";
import { elicitParams } from "./ask-over-mcp.js";
import { type AnsweredAhead, type HeldCall, type HeldStep, heldCallsOf } from "./held-calls.js";

/** The key of a held call's question among an input_required result's requests, when the question names none. */
const QUESTION_KEY = "toolwire_question";

/** What a held call's requestState holds: the call, and which of its questions the client was asked. */
interface HeldState {
  readonly held: string;
  readonly round: number;
}

/** What a held call's requestState starts with (an approval's sealed state never does). */
const HELD_PREFIX = "held.";

/** A held call's state as its requestState: one spelling only, so that any change to it is seen. */
function encodeHeldState(state: HeldState): string {
  const json = JSON.stringify({ held: state.held, round: state.round });
  return `${HELD_PREFIX}${Buffer.from(json, "utf8").toString("base64url")}`;
}

/**
 * The held call's state when `state` is exactly the requestState of a held call's question, as it was given (the
 * call's id is a random capability); `"changed"` for one that starts like it but is spelled any other way;
 * `undefined` for any other state (an approval's, or none).
 */
export function readHeldState(state: unknown): HeldState | "changed" | undefined {
  if (typeof state !== "string" || !state.startsWith(HELD_PREFIX)) return undefined;
  try {
    const read: unknown = JSON.parse(Buffer.from(state.slice(HELD_PREFIX.length), "base64url").toString("utf8"));
    if (!isRecord(read) || typeof read.held !== "string" || !Number.isSafeInteger(read.round)) return "changed";
    const held = { held: read.held, round: read.round as number };
    return encodeHeldState(held) === state ? held : "changed";
  } catch {
    return "changed";
  }
}

/**
 * What the client hears next from `held`: its question as input_required, or its end (a result, or the JSON-RPC
 * error it throws). Aborting the request that waits for it (`signal`) aborts the call.
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
  return questionResult(held, step);
}

/** A held call's question as an input_required result. */
function questionResult(held: HeldCall, step: HeldStep & { readonly kind: "question" }): CallToolResult {
  return inputRequired({
    inputRequests: { [step.question.key ?? QUESTION_KEY]: inputRequired.elicit(elicitParams(step.question) as never) },
    requestState: encodeHeldState({ held: held.id, round: step.round }),
  }) as unknown as CallToolResult;
}

/**
 * A retry carrying the answer to a held call's question: the answer goes in, and the next step comes back. A retry
 * without a usable answer to the open question (or answering an earlier round) is asked that question again; one
 * whose held call is not here (it ended, waited too long, or runs in another process) is refused with -32602.
 */
export function answerHeldCall(
  session: object,
  toolName: string,
  state: HeldState,
  ctx: ServerContext,
): Promise<CallToolResult> | CallToolResult {
  const held = heldCallsOf(session).find(state.held);
  if (held === undefined || held.toolName !== toolName) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `The requestState names a call to ${toolName} that is no longer waiting here: it ended, waited too long, or runs in another process. Nothing was run again.`,
    );
  }
  const open = held.open();
  if (open === undefined) return heldCallStep(held, ctx.mcpReq.signal);
  const answer = open.round === state.round ? answerOf(ctx, open.question.key ?? QUESTION_KEY) : undefined;
  if (answer === undefined) return questionResult(held, open);
  held.answer(answer);
  return heldCallStep(held, ctx.mcpReq.signal);
}

/** The answers a request brings ahead (its inputResponses), for a held call's keyed questions. */
export function answersAhead(ctx: ServerContext): AnsweredAhead {
  return (key) => answerOf(ctx, key);
}

/** The request's answer to the question `key`, when it holds a well-formed elicitation answer for it. */
function answerOf(ctx: ServerContext, key: string): ToolQuestionAnswer | undefined {
  const responses: unknown = ctx.mcpReq.inputResponses;
  const view = isRecord(responses) ? inputResponse(responses, key) : undefined;
  if (view?.kind !== "elicit") return undefined;
  if (view.action === "decline" || view.action === "cancel") return { action: view.action };
  if (view.action !== "accept" || (view.content !== undefined && !isRecord(view.content))) return undefined;
  return { action: "accept", ...(view.content === undefined ? {} : { content: view.content as JsonObject }) };
}
