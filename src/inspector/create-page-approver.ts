// createPageApprover: an approver whose requests wait on the page for a person's approve or decline.
import { describeQuestion } from "../core/approve/describe-question.js";
import { describeFlowReason } from "../core/flow/describe-flow-reason.js";
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "../core/types.js";
import { cutForPage } from "./cut-for-page.js";
import type { ApprovalAnswer, PendingApprovalView } from "./types.js";

/** The most requests that may wait on the page at once; more are declined at once. */
const MAX_PENDING = 1_000;
/** The most characters of a reason typed on the page that reach the model. */
const MAX_REASON_CHARS = 500;

/** What the page approver tells its owner. */
interface PageApproverListener {
  /** A request began waiting. */
  added(view: PendingApprovalView): void;
  /** A request stopped waiting: answered, withdrawn (its signal aborted) or closed. */
  settled(approvalId: string, outcome: "approved" | "declined" | "withdrawn"): void;
}

/** Requests waiting for the page, and how they are answered. */
export interface PageApprover {
  readonly approver: NonNullable<ApprovalOptions["approver"]>;
  pending(): PendingApprovalView[];
  /** Answers a waiting request: `false` when no request of that id waits (never asked, answered, withdrawn). */
  answer(approvalId: string, answer: ApprovalAnswer): boolean;
  /** Declines every waiting request with `reason`, and declines every later one at once. */
  close(reason: string): void;
}

interface Waiting {
  readonly view: PendingApprovalView;
  readonly resolve: (decision: ApprovalDecision) => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

/** A page approver; `sessionOf` names the session that asked, when the inspector watches it. */
export function createPageApprover(options: {
  readonly maxBodyBytes: number;
  readonly listener: PageApproverListener;
  readonly sessionOf: (approvalId: string) => string | undefined;
}): PageApprover {
  const waiting = new Map<string, Waiting>();
  let closedReason: string | undefined;

  const settle = (approvalId: string, decision: ApprovalDecision, outcome: "approved" | "declined" | "withdrawn") => {
    const entry = waiting.get(approvalId);
    if (entry === undefined) return false;
    waiting.delete(approvalId);
    entry.signal.removeEventListener("abort", entry.onAbort);
    entry.resolve(decision);
    options.listener.settled(approvalId, outcome);
    return true;
  };

  const approver = (request: ApprovalRequest, context: { readonly signal: AbortSignal }) => {
    if (closedReason !== undefined) return { approve: false as const, reason: closedReason };
    const { signal } = context;
    if (signal.aborted) return { approve: false as const, reason: "the call stopped waiting" };
    if (waiting.size >= MAX_PENDING || waiting.has(request.approvalId)) {
      return { approve: false as const, reason: "too many approvals wait in the inspector" };
    }
    const sessionId = options.sessionOf(request.approvalId);
    const flowReason = describeFlowReason(request);
    const question = describeQuestion(request);
    const view: PendingApprovalView = {
      approvalId: request.approvalId,
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      ...(sessionId === undefined ? {} : { sessionId }),
      input: cutForPage(request.input, options.maxBodyBytes),
      inputDigest: request.inputDigest,
      expiresAt: request.expiresAt,
      ...(flowReason === undefined ? {} : { flowReason }),
      ...(question === undefined ? {} : { question }),
    };
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = () => {
        settle(request.approvalId, { approve: false, reason: "the call stopped waiting" }, "withdrawn");
      };
      waiting.set(request.approvalId, { view, resolve, signal, onAbort });
      signal.addEventListener("abort", onAbort, { once: true });
      options.listener.added(view);
    });
  };

  return {
    approver,
    pending: () => [...waiting.values()].map((entry) => entry.view),
    answer(approvalId, answer) {
      if (answer.approve === true) return settle(approvalId, { approve: true }, "approved");
      const reason = typeof answer.reason === "string" ? answer.reason.trim().slice(0, MAX_REASON_CHARS) : "";
      return settle(
        approvalId,
        { approve: false, reason: reason === "" ? "declined in the inspector" : reason },
        "declined",
      );
    },
    close(reason) {
      closedReason = reason;
      for (const approvalId of [...waiting.keys()]) settle(approvalId, { approve: false, reason }, "withdrawn");
    },
  };
}
