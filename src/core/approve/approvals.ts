// The approval phase of a call: after the before hooks, before the executor, bound to the call's id and exact input.
import { randomUUID } from "node:crypto";
import { copyJson } from "../copy-json.js";
import { cutText, describeThrown } from "../errors.js";
import { compilePolicyPattern } from "../filter/policy.js";
import { isRecord } from "../json.js";
import type {
  ApprovalOptions,
  ApprovalRequest,
  ApprovalResolvedEvent,
  ApprovalStore,
  FlowSource,
  JsonObject,
  ToolCallErrorCode,
  ToolDescriptor,
  ToolQuestion,
} from "../types.js";
import { frozenJsonCopy, plainJsonCopy } from "./frozen-json-copy.js";
import { inputDigest } from "./input-digest.js";
import { createMemoryApprovalStore } from "./memory-approval-store.js";
import { createStateSeal, type StateSeal } from "./state-seal.js";

/** How long an approval request stays open when `ttlMs` is not given: 15 minutes. */
export const DEFAULT_APPROVAL_TTL_MS = 900_000;

/** The session's approvals, checked and compiled once. */
export interface Approvals {
  requires(call: { toolName: string; input: JsonObject; descriptor: ToolDescriptor }): boolean;
  readonly approver: ApprovalOptions["approver"];
  readonly ttlMs: number;
  readonly store: ApprovalStore;
  /** Signs paused runs' states with `secret`. */
  readonly seal: StateSeal;
}

/** The call an approval is asked for: its id, its tool, and the exact input that would run. */
interface ApprovalSubject {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
  readonly parentToolCallId?: string;
  /** Set when flow rules ask: untrusted content is in the session, brought by `sources`. */
  readonly reason?: "untrusted-content";
  readonly sources?: readonly FlowSource[];
  /** Set when the running call asks a question of its own (`context.ask`) that a yes or no answers. */
  readonly question?: ToolQuestion;
}

/**
 * What the approval phase decided: run the call with `input` (a fresh copy of the input that was digested and asked
 * about, sharing nothing with what anyone was shown), or end it with this code and message.
 */
type ApprovalVerdict =
  | { readonly approved: true; readonly input: JsonObject }
  | { readonly approved: false; readonly code: ToolCallErrorCode; readonly message: string };

/** What the phase announces: the request, and how it was resolved. */
interface ApprovalAnnouncer {
  requested(request: ApprovalRequest): void;
  resolved(event: ApprovalResolvedEvent): void;
}

/** Checks the options and compiles `require`. Throws a `TypeError` on options that cannot work. */
export function createApprovals(options: ApprovalOptions): Approvals {
  const { require, approver, ttlMs = DEFAULT_APPROVAL_TTL_MS, store = createMemoryApprovalStore(), secret } = options;
  if (approver !== undefined && typeof approver !== "function")
    throw new TypeError("approvals.approver must be a function");
  if (!(typeof ttlMs === "number" && ttlMs > 0 && ttlMs <= 2_147_483_647)) {
    throw new TypeError(
      `approvals.ttlMs must be a positive number of milliseconds (at most 2147483647), got ${String(ttlMs)}`,
    );
  }
  if (!isRecord(store) || typeof store.claim !== "function")
    throw new TypeError("approvals.store must have claim(approvalId)");
  let requires: Approvals["requires"];
  if (typeof require === "function") {
    // The predicate sees a frozen copy: it decides about the call, it cannot change what runs.
    requires = (call) => require({ ...call, input: frozenJsonCopy(call.input) }) === true;
  } else if (Array.isArray(require)) {
    const matchers = require.map((pattern) => compilePolicyPattern(pattern));
    requires = ({ toolName, descriptor }) => {
      const lower = toolName.toLowerCase();
      return matchers.some((matches) => matches(descriptor, lower));
    };
  } else {
    throw new TypeError("approvals.require must be a list of policy patterns or a function");
  }
  return { requires, approver, ttlMs, store, seal: createStateSeal(secret) };
}

/**
 * A new request for `call`, open for `ttlMs` from now. Frozen, with a deep-frozen copy of the input: approvers and
 * listeners it is handed to cannot change the input, the id or the expiry; the call runs a copy of `request.input`.
 */
export function createApprovalRequest(approvals: Approvals, call: ApprovalSubject): ApprovalRequest {
  const input = frozenJsonCopy(call.input);
  const request: ApprovalRequest = {
    approvalId: randomUUID(),
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input,
    inputDigest: inputDigest(input),
    descriptor: call.descriptor,
    expiresAt: Date.now() + approvals.ttlMs,
  };
  const { parentToolCallId, reason, sources, question } = call;
  const nested = parentToolCallId === undefined ? request : { ...request, parentToolCallId };
  if (question !== undefined)
    return Object.freeze({
      ...nested,
      question: frozenJsonCopy(question as unknown as JsonObject) as unknown as ToolQuestion,
    });
  if (reason === undefined) return Object.freeze(nested);
  const named = Object.freeze(
    (sources ?? []).map(({ toolCallId, toolName }) => Object.freeze({ toolCallId, toolName })),
  );
  return Object.freeze({ ...nested, reason, sources: named });
}

/**
 * Asks for approval of one call (of `approver`: the call's own, else the session's) and waits, holding
 * no lock, for at most `ttlMs`. Never rejects.
 * Approved: the verdict's `input`, a fresh copy of the request's frozen input, is what runs, whatever the
 * approver or a listener did to what they were handed. Declined, expired, unanswerable or aborted: the verdict says
 * why. A decision is read once, as plain data, and claimed in the store once.
 */
export async function askApproval(
  approvals: Approvals,
  call: ApprovalSubject,
  announce: ApprovalAnnouncer,
  signal: AbortSignal | undefined,
  approver: ApprovalOptions["approver"] = approvals.approver,
): Promise<ApprovalVerdict> {
  const { toolCallId, toolName } = call;
  if (approver === undefined) {
    return {
      approved: false,
      code: "approval-required",
      message: `Tool call ${toolName} needs a person's approval, and nobody here can give it. It was not run.`,
    };
  }
  const request = createApprovalRequest(approvals, call);
  const resolved = (outcome: ApprovalResolvedEvent["outcome"]) =>
    announce.resolved({ approvalId: request.approvalId, toolCallId, toolName, outcome });
  announce.requested(request);
  const waiting = new AbortController();
  const answer = await waitForAnswer(approver, request, waiting, approvals.ttlMs, signal);
  waiting.abort(); // the approver's prompt can close: the call no longer waits for it
  if (answer.kind === "aborted") {
    resolved("declined");
    return { approved: false, code: "aborted", message: `Tool call ${toolName} aborted while it waited for approval.` };
  }
  if (answer.kind === "expired" || Date.now() > request.expiresAt) {
    resolved("expired");
    return {
      approved: false,
      code: "approval-expired",
      message: `Tool call ${toolName} was not approved within ${approvals.ttlMs} ms, so it was not run.`,
    };
  }
  const decision =
    answer.kind === "decided" ? readDecision(answer.value) : { approve: false as const, reason: answer.reason };
  let first: boolean;
  try {
    first = (await approvals.store.claim(request.approvalId, request.expiresAt)) === true;
  } catch (error) {
    first = false;
    decision.reason = `the approval store failed: ${describeThrown(error)}`;
  }
  if (!first && decision.approve) {
    resolved("declined");
    return declined(decision.reason ?? `approval ${request.approvalId} was already used`);
  }
  if (!decision.approve) {
    resolved("declined");
    return declined(decision.reason ?? "declined by the user");
  }
  resolved("approved");
  return { approved: true, input: plainJsonCopy(request.input) };
}

/**
 * Applies a decision made after a pause, in this process or another (the caller claimed its id once in
 * the store): past `expiresAt` it expires; an approval whose input no longer matches its digest, or
 * anything but `{ approve: true }`, declines. Announces the resolution. Approved: the verdict's `input` is a fresh
 * copy of `request.input`, the input whose digest was checked.
 */
export function applyResumedDecision(
  request: ApprovalRequest,
  decision: unknown,
  announce: ApprovalAnnouncer,
): ApprovalVerdict {
  const { approvalId, toolCallId, toolName } = request;
  const resolved = (outcome: ApprovalResolvedEvent["outcome"]) =>
    announce.resolved({ approvalId, toolCallId, toolName, outcome });
  if (!(Date.now() <= request.expiresAt)) {
    resolved("expired");
    return {
      approved: false,
      code: "approval-expired",
      message: `Tool call ${toolName} was decided after its approval expired, so it was not run.`,
    };
  }
  const read = readDecision(decision);
  if (read.approve && inputDigest(request.input) !== request.inputDigest) {
    resolved("declined");
    return declined("its input is not the input that was approved");
  }
  if (!read.approve) {
    resolved("declined");
    return declined(read.reason ?? "declined by the user");
  }
  resolved("approved");
  return { approved: true, input: plainJsonCopy(request.input) };
}

function declined(reason: string): ApprovalVerdict {
  return { approved: false, code: "approval-declined", message: `Tool call declined: ${reason}` };
}

type Answer =
  | { readonly kind: "decided"; readonly value: unknown }
  | { readonly kind: "failed"; readonly reason: string }
  | { readonly kind: "expired" }
  | { readonly kind: "aborted" };

/** The approver's answer, or the expiry, or the caller's abort, whichever comes first. */
function waitForAnswer(
  approver: NonNullable<ApprovalOptions["approver"]>,
  request: ApprovalRequest,
  waiting: AbortController,
  ttlMs: number,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  if (signal?.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise<Answer>((resolve) => {
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const onAbort = () => settle({ kind: "aborted" });
    const timer = setTimeout(() => settle({ kind: "expired" }), ttlMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      Promise.resolve(approver(request, { signal: waiting.signal })).then(
        (value) => settle({ kind: "decided", value }),
        (error: unknown) => settle({ kind: "failed", reason: `the approver failed: ${describeThrown(error)}` }),
      );
    } catch (error) {
      settle({ kind: "failed", reason: `the approver failed: ${describeThrown(error)}` });
    }
  });
}

/** A decision read once as plain data; anything but `{ approve: true }` declines. */
/** A decision as plain data: `{ approve: true }` only for exactly that; anything else declines, with its reason. */
export function readDecision(value: unknown): { approve: boolean; reason?: string } {
  const copied = copyJson(value, "the decision");
  if (!copied.ok || !isRecord(copied.value))
    return { approve: false, reason: "the approver's answer was not a decision" };
  const { approve, reason } = copied.value;
  if (approve === true) return { approve: true };
  if (approve !== false) return { approve: false, reason: "the approver's answer was not a decision" };
  return typeof reason === "string" && reason.trim() !== ""
    ? { approve: false, reason: cutText(reason, 500) }
    : { approve: false };
}
