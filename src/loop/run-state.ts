// A paused run as plain JSON: what a later request, or another process, needs to go on, signed.

import { copyJson } from "../core/copy-json.js";
import type { SessionApprovals } from "../core/dispatch/session.js";
import { ApprovalError } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { ApprovalRequest, FlowSource, JsonObject, JsonValue, ToolResultBlock } from "../core/types.js";
import type { ModelStopReason, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";

/**
 * A run paused for approval (`done` with reason `awaiting_approval`): plain JSON, safe to store and send,
 * signed with HMAC-SHA256 under the session's `approvals.secret`. Any change to it breaks the signature.
 */
export interface AgentRunState {
  readonly version: 1;
  /** The paused turn. */
  readonly turn: number;
  /** The run's `maxTurns`; `resumeAgent`'s own wins. */
  readonly maxTurns: number;
  readonly usage: ModelUsage;
  /** The paused turn's stop reason, for its `turn_end` once it ends. */
  readonly stopReason: ModelStopReason;
  /** The conversation up to the assistant message whose calls wait. */
  readonly transcript: readonly TranscriptMessage[];
  /** One per call of that message, in its order: the result, or `null` while its approval waits. */
  readonly results: readonly (ToolResultBlock | null)[];
  /**
   * The approvals the calls wait for. A call whose executor paused it (a code-mode program) waits for its nested
   * call's approval: that request's `parentToolCallId` is the call's id.
   */
  readonly pending: readonly ApprovalRequest[];
  /** What the executors that paused their calls left (a program's ledger), by approval id; absent when none did. */
  readonly continuations?: Readonly<Record<string, JsonValue>>;
  /**
   * The calls that brought untrusted content into the session before it paused (docs/security.md): a resumed run's
   * session is tainted by them again. Absent when none did.
   */
  readonly taint?: readonly FlowSource[];
  /** `"hmac-sha256:"` and the hex MAC of the canonical JSON of every other field. */
  readonly signature: string;
}

/** A paused call: its approval request, its place among the turn's calls, and what its executor left, if it paused. */
export interface PendingCall {
  readonly request: ApprovalRequest;
  readonly position: number;
  /** Set when the call's executor paused it for its nested call `request` (`ToolCallOutcome.continuation`). */
  readonly continuation?: JsonValue;
}

/** What a pause keeps, before it is signed. */
type RunStateBody = Omit<AgentRunState, "signature" | "version">;

/** The state, copied into plain JSON and signed; `undefined` when some part of it is not JSON data. */
export function sealRunState(approvals: SessionApprovals, body: RunStateBody): AgentRunState | undefined {
  const copied = copyJson({ version: 1, ...body }, "the run state");
  if (!copied.ok) return undefined;
  const plain = copied.value as JsonObject;
  return { ...plain, signature: approvals.seal.sign(plain) } as unknown as AgentRunState;
}

/**
 * A state whose signature verifies, with its paused calls; throws `ApprovalError` `approval-state-invalid` otherwise.
 */
export function openRunState(
  approvals: SessionApprovals | undefined,
  state: unknown,
): {
  readonly state: AgentRunState;
  readonly calls: readonly ToolCall[];
  /** Each pending approval with its call's place in `calls`, and its continuation when its executor paused it. */
  readonly pending: readonly PendingCall[];
} {
  const invalid = (why: string): never => {
    throw new ApprovalError("approval-state-invalid", `This run state cannot be resumed: ${why}.`);
  };
  if (approvals === undefined) invalid("the session has no approvals, so it cannot check the state's signature");
  const copied = copyJson(state, "the run state");
  if (!copied.ok || !isRecord(copied.value)) return invalid("it is not a JSON object");
  const { signature, ...body } = copied.value;
  if (!(approvals as SessionApprovals).seal.verify(body as JsonObject, signature)) {
    invalid("its signature does not verify (it was changed, or signed with another secret)");
  }
  const opened = copied.value as unknown as AgentRunState;
  if (opened.version !== 1) invalid(`version ${String(opened.version)} is not one this toolwire reads`);
  const last = opened.transcript.at(-1);
  if (last?.role !== "assistant" || last.toolCalls.length !== opened.results.length) {
    invalid("its last message is not the paused turn's calls");
  }
  const positions = opened.results.flatMap((result, index) => (result === null ? [index] : []));
  const calls = (last as Extract<TranscriptMessage, { role: "assistant" }>).toolCalls;
  const continuations = opened.continuations ?? {};
  if (!isRecord(continuations)) invalid("its continuations are not an object");
  const matches = opened.pending.every((request, index) => {
    const id = calls[positions[index] as number]?.id;
    // A call its executor paused waits for its nested call's approval.
    return Object.hasOwn(continuations, request.approvalId)
      ? request.parentToolCallId === id
      : request.toolCallId === id;
  });
  if (positions.length !== opened.pending.length || !matches) {
    invalid("its pending approvals do not match its unanswered calls");
  }
  const { taint } = opened;
  if (taint !== undefined && !(Array.isArray(taint) && taint.every(isFlowSource))) {
    invalid("its taint is not a list of { toolCallId, toolName }");
  }
  const pendingIds = new Set(opened.pending.map((request) => request.approvalId));
  if (!Object.keys(continuations).every((approvalId) => pendingIds.has(approvalId))) {
    invalid("a continuation belongs to no pending approval");
  }
  return {
    state: opened,
    calls,
    pending: opened.pending.map((request, index) => {
      const position = positions[index] as number;
      const { approvalId } = request;
      if (!Object.hasOwn(continuations, approvalId)) return { request, position };
      return { request, position, continuation: continuations[approvalId] as JsonValue };
    }),
  };
}

function isFlowSource(value: unknown): value is FlowSource {
  return isRecord(value) && typeof value.toolCallId === "string" && typeof value.toolName === "string";
}
