// A call that needs approval, asked of the MCP client that made it: pushed as an elicitation to a 2025 client,
// returned as an input_required result (with the pending approval, signed, as its requestState) to a 2026-07-28 one.

import { inputRequired, inputResponse, type ServerContext } from "@modelcontextprotocol/server";
import type { SessionApprovals } from "../../core/dispatch/session.js";
import { describeFlowReason } from "../../core/flow/describe-flow-reason.js";
import { isRecord } from "../../core/json.js";
import type { ApprovalDecision, ApprovalRequest, DispatchOptions, JsonValue } from "../../core/types.js";
import type { TaskableCall } from "./tasks/served-tasks.js";

/** The key of the approval question among an input_required result's requests. */
const APPROVAL_KEY = "toolwire_approval";
const MAX_SHOWN_INPUT_CHARS = 2_000;
const REASON_SCHEMA = {
  type: "object",
  properties: { reason: { type: "string", title: "Reason", description: "Why, when you decline" } },
} as const;

function question(request: ApprovalRequest): string {
  const input = JSON.stringify(request.input);
  const shown = input.length > MAX_SHOWN_INPUT_CHARS ? `${input.slice(0, MAX_SHOWN_INPUT_CHARS)}…` : input;
  const why = describeFlowReason(request);
  const asked = `Approve the call ${request.toolName} ${shown}? (input ${request.inputDigest})`;
  return why === undefined ? asked : `${asked} ${why}`;
}

function decisionOf(
  action: "accept" | "decline" | "cancel",
  content: Record<string, unknown> | undefined,
): ApprovalDecision {
  if (action === "accept") return { approve: true };
  const reason = content?.reason;
  if (typeof reason === "string" && reason.trim() !== "") return { approve: false, reason };
  return {
    approve: false,
    reason: action === "cancel" ? "cancelled by the MCP client's user" : "declined by the MCP client's user",
  };
}

/**
 * For a 2025 client: an approver that asks through elicitation (the tool, its input and its digest,
 * an optional reason). Accept approves; decline and cancel decline, with the reason when given.
 */
export function elicitApproval(ctx: ServerContext): NonNullable<DispatchOptions["approver"]> {
  return async (request, { signal }) => {
    const answer = await ctx.mcpReq.elicitInput(
      { message: question(request), requestedSchema: REASON_SCHEMA },
      { signal, timeout: Math.max(1, request.expiresAt - Date.now()) },
    );
    return decisionOf(answer.action, answer.content);
  };
}

/**
 * For a 2026-07-28 client: the input_required result that asks it, carrying the pending approval as
 * its requestState, signed with the session's approvals secret (so any process with that secret can
 * finish the call when the client retries).
 */
export function approvalInputRequired(approvals: SessionApprovals, request: ApprovalRequest) {
  const sealed = {
    request: request as unknown as JsonValue,
    signature: approvals.seal.sign(request as unknown as JsonValue),
  };
  return inputRequired({
    inputRequests: {
      [APPROVAL_KEY]: inputRequired.elicit({ message: question(request), requestedSchema: REASON_SCHEMA }),
    },
    requestState: Buffer.from(JSON.stringify(sealed), "utf8").toString("base64url"),
  });
}

/**
 * For a 2026-07-28 client that declared the tasks extension: the approval question as a task's input request (an
 * `elicitation/create`), its status message, and the decision a `tasks/update` answer to it makes.
 */
function approvalTaskQuestion(request: ApprovalRequest) {
  return {
    request: inputRequired.elicit({ message: question(request), requestedSchema: REASON_SCHEMA }),
    message: `Waiting for approval of ${request.toolName} (${request.approvalId})`,
    decide(answer: unknown): ApprovalDecision {
      const action = isRecord(answer) ? answer.action : undefined;
      if (action !== "accept" && action !== "decline" && action !== "cancel") {
        return { approve: false, reason: "the MCP client sent no answer to the approval question" };
      }
      return decisionOf(action, isRecord(answer) && isRecord(answer.content) ? answer.content : undefined);
    },
  };
}

/** For a 2026-07-28 client that takes tasks: an approver that asks through the call's task (`input_required`). */
export function approveThroughTask(task: TaskableCall): NonNullable<DispatchOptions["approver"]> {
  return async (request, { signal }) => {
    const question = approvalTaskQuestion(request);
    const answer = await task.ask({ request: question.request, message: question.message, signal });
    return question.decide(answer);
  };
}

/**
 * The retry of a call that asked for approval: its pending request, when the requestState verifies and
 * belongs to this tool, and the client's answer. `undefined` when the request carries no such state.
 */
export function readApprovalRetry(
  approvals: SessionApprovals,
  ctx: ServerContext,
  toolName: string,
): { readonly request: ApprovalRequest; readonly decision: ApprovalDecision } | "invalid" | undefined {
  const raw = ctx.mcpReq.requestState<unknown>();
  if (raw === undefined) return undefined;
  let sealed: unknown;
  try {
    sealed = typeof raw === "string" ? JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) : undefined;
  } catch {
    return "invalid";
  }
  if (!isRecord(sealed) || !isRecord(sealed.request)) return "invalid";
  const request = sealed.request as unknown as ApprovalRequest;
  if (!approvals.seal.verify(sealed.request as JsonValue, sealed.signature) || request.toolName !== toolName) {
    return "invalid";
  }
  const view = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_KEY);
  const decision: ApprovalDecision =
    view.kind === "elicit"
      ? decisionOf(view.action, view.content)
      : { approve: false, reason: "the MCP client sent no answer to the approval question" };
  return { request, decision };
}
