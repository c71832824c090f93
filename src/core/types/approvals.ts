// Approvals: a call waiting for a person's yes or no, who answers it, and where decisions are remembered.
import type { ToolDescriptor } from "./descriptor.js";
import type { FlowSource } from "./flow.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { ToolQuestion } from "./questions.js";

/** A call waiting for a person's yes or no: bound to one call and one exact input. */
export interface ApprovalRequest {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The input that will run if approved: what the before hooks left. */
  readonly input: JsonObject;
  /** `"sha256:"` and the hex SHA-256 of the RFC 8785 canonical JSON of `input`. */
  readonly inputDigest: string;
  readonly descriptor: ToolDescriptor;
  /** Epoch milliseconds: the time of asking plus `ttlMs`. */
  readonly expiresAt: number;
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
  /**
   * Set when flow rules ask for this approval (docs/security.md): untrusted content is in the session, and `sources`
   * are the calls that brought it.
   */
  readonly reason?: "untrusted-content";
  readonly sources?: readonly FlowSource[];
  /**
   * Set when the call, while it runs, asks a question of its own (`context.ask`: an MCP server's elicitation) that
   * only a yes or no can answer here: approving accepts it with the form's defaults, declining declines it. The
   * call's input is shown for context; nothing runs again.
   */
  readonly question?: ToolQuestion;
}

/** A person's answer to an `ApprovalRequest`. */
export type ApprovalDecision = { readonly approve: true } | { readonly approve: false; readonly reason?: string };

/** Remembers decided approval ids, so that one decision is applied once, in one process or several. */
export interface ApprovalStore {
  /**
   * True the first time an id is claimed, false every time after, at least until `expiresAt` (epoch
   * milliseconds: the request's own expiry, after which no decision on it runs anything). A store may forget
   * the id after `expiresAt`; without it, it must remember the id for good. Throwing or rejecting declines the call.
   */
  claim(approvalId: string, expiresAt?: number): boolean | Promise<boolean>;
}

/** Which calls need a person's approval, and who gives it. */
export interface ApprovalOptions {
  /** Policy patterns (`bash`, `group:fs`, `mcp:github`, `*`) or a predicate over the call. */
  readonly require:
    | readonly string[]
    | ((call: {
        readonly toolName: string;
        readonly input: JsonObject;
        readonly descriptor: ToolDescriptor;
      }) => boolean);
  /** Asks a person. Without one, a call that needs approval ends with `approval-required`. */
  readonly approver?: (
    request: ApprovalRequest,
    context: { readonly signal: AbortSignal },
  ) => ApprovalDecision | Promise<ApprovalDecision>;
  /** How long a request stays open. Default 900 000 ms (15 minutes). */
  readonly ttlMs?: number;
  /**
   * Where decided ids are claimed. Default: a new `createMemoryApprovalStore()` for this session alone; give
   * sessions that may see the same approval (a gateway's, several processes') one shared store.
   */
  readonly store?: ApprovalStore;
  /**
   * The HMAC-SHA256 key that signs paused runs' states: a long random value of at least 32 bytes (UTF-8); a
   * shorter one throws a `TypeError`. Default: random per session, so a state resumes only in the session that
   * paused it; give the same secret to every process that may resume it.
   */
  readonly secret?: string;
}

/** A decision for a paused call, for `session.approvals.resume`. */
export interface ApprovalResumption {
  /** The request as the pause handed it out (from a verified run state). */
  readonly request: ApprovalRequest;
  readonly decision: ApprovalDecision;
  /**
   * The pause's `continuation` (`ToolCallOutcome`), when an executor paused for its nested call `request`: then
   * `parent`, the paused call as the model made it (same id and input), is what runs again.
   */
  readonly continuation?: JsonValue;
  readonly parent?: { readonly id: string; readonly name: string; readonly input: unknown };
}

/** `approval_resolved`: a request was approved, declined or expired. */
export interface ApprovalResolvedEvent {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly outcome: "approved" | "declined" | "expired";
}
