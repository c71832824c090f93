// A call as a state machine: received → ready → (awaiting-approval →) running → executed → ended; refused → ended;
// paused (before running, or by its executor: suspended).
import { errorResult } from "../tool-result.js";
import type { ApprovalRequest, JsonObject, JsonValue, ToolCallErrorCode, ToolResult } from "../types.js";

/**
 * Where a call stands. Plain JSON (no functions, no class instances): what a durable run or an MCP task
 * writes down, and what `JSON.parse(JSON.stringify(state))` gives back whole. `id` and `toolName` are as the
 * model sent them (read to strings); `input` is the checked input, the one that runs.
 */
export type CallState =
  /** Read from the model's tool use; its input not yet checked. */
  | { readonly kind: "received"; readonly id: string; readonly toolName: string }
  /** Not run, and it will not run: an unknown tool, invalid input, a hook's block, a person's no, an abort. */
  | {
      readonly kind: "refused";
      readonly id: string;
      readonly toolName: string;
      readonly code: ToolCallErrorCode;
      readonly message: string;
    }
  /**
   * Checked (and passed by the before hooks, which may have rewritten `input`): it may run. `approved` is set
   * once a person said yes, so the approval phase is behind it.
   */
  | {
      readonly kind: "ready";
      readonly id: string;
      readonly toolName: string;
      readonly input: JsonObject;
      readonly approved?: true;
    }
  /** Waiting, holding no lock, for an approver's answer to `request`. */
  | {
      readonly kind: "awaiting-approval";
      readonly id: string;
      readonly toolName: string;
      readonly request: ApprovalRequest;
    }
  /**
   * Waiting for a decision that comes back later, maybe to another process (`session.approvals.resume`). With
   * `continuation`, the executor paused it for its nested call `request`: the call runs again once decided.
   */
  | {
      readonly kind: "paused";
      readonly id: string;
      readonly toolName: string;
      readonly request: ApprovalRequest;
      readonly continuation?: JsonValue;
    }
  /** The executor runs with `input`. */
  | { readonly kind: "running"; readonly id: string; readonly toolName: string; readonly input: JsonObject }
  /**
   * The executor's result, or its timeout or abort as an error result with its `errorCode`: before the after hooks
   * and the result budget.
   */
  | {
      readonly kind: "executed";
      readonly id: string;
      readonly toolName: string;
      readonly input: JsonObject;
      readonly result: ToolResult;
      readonly errorCode?: ToolCallErrorCode;
    }
  /** Final: the result the model gets; `errorCode` says why it failed, when it failed before or in the executor. */
  | {
      readonly kind: "ended";
      readonly id: string;
      readonly toolName: string;
      readonly result: ToolResult;
      readonly errorCode?: ToolCallErrorCode;
    };

/** What happens to a call. */
export type CallEvent =
  /** The tool is active and the input passed its schema: received → ready. */
  | { readonly kind: "checked"; readonly input: JsonObject }
  /** The before hooks let it run, with the input they left: ready → ready. */
  | { readonly kind: "allowed"; readonly input: JsonObject }
  /** It will not run: received, ready, awaiting-approval or paused → refused. */
  | { readonly kind: "refused"; readonly code: ToolCallErrorCode; readonly message: string }
  /** An approver was asked: ready → awaiting-approval. */
  | { readonly kind: "approval-requested"; readonly request: ApprovalRequest }
  /** Nobody here can answer and the caller can wait: ready → paused. */
  | { readonly kind: "paused"; readonly request: ApprovalRequest }
  /** The executor paused the call for its nested call's `request`, leaving `continuation`: running → paused. */
  | { readonly kind: "suspended"; readonly request: ApprovalRequest; readonly continuation: JsonValue }
  /** A person said yes to exactly `input`: awaiting-approval or paused → ready (approved). */
  | { readonly kind: "approved"; readonly input: JsonObject }
  /** The executor started: ready → running. */
  | { readonly kind: "started" }
  /**
   * The executor's outcome: running → executed; also ready → executed for a call aborted before its executor
   * could start (it then goes through the after hooks like a call that ran).
   */
  | { readonly kind: "executed"; readonly result: ToolResult; readonly errorCode?: ToolCallErrorCode }
  /**
   * The after hooks patched the result, or the result budget saved its text and left a preview: executed → executed.
   */
  | { readonly kind: "result-changed"; readonly result: ToolResult }
  /** The call ends: executed → ended; refused → ended, its refusal as an error result. */
  | { readonly kind: "end" }
  /** A fault inside toolwire: any state but ended → ended, `execution-failed`. */
  | { readonly kind: "failed"; readonly message: string };

/** The events that carry nothing: one object each, shared. */
export const STARTED: CallEvent = Object.freeze({ kind: "started" });
export const END: CallEvent = Object.freeze({ kind: "end" });

/** A call read from a model's tool use. */
export function receivedCall(id: string, toolName: string): CallState {
  return { kind: "received", id, toolName };
}

/** A paused call brought back from its approval request (written down, then read again, maybe by another process). */
export function pausedCall(request: ApprovalRequest): CallState {
  return { kind: "paused", id: request.toolCallId, toolName: request.toolName, request };
}

/**
 * The state after `event`: all of the machine's transitions, with no I/O. An event the state does not expect
 * (a second outcome for a call that has one, anything after `ended`) leaves it as it is; the caller reads the
 * new state to see whether its event took effect.
 */
export function nextCallState(state: CallState, event: CallEvent): CallState {
  const { id, toolName } = state;
  switch (event.kind) {
    case "checked":
      return state.kind === "received" ? { kind: "ready", id, toolName, input: event.input } : state;
    case "allowed":
      return state.kind === "ready" && state.approved !== true
        ? { kind: "ready", id, toolName, input: event.input }
        : state;
    case "refused":
      if (state.kind === "ended" || state.kind === "refused" || state.kind === "running" || state.kind === "executed") {
        return state;
      }
      return { kind: "refused", id, toolName, code: event.code, message: event.message };
    case "approval-requested":
      return state.kind === "ready" ? { kind: "awaiting-approval", id, toolName, request: event.request } : state;
    case "paused":
      return state.kind === "ready" ? { kind: "paused", id, toolName, request: event.request } : state;
    case "suspended":
      return state.kind === "running"
        ? { kind: "paused", id, toolName, request: event.request, continuation: event.continuation }
        : state;
    case "approved":
      return state.kind === "awaiting-approval" || state.kind === "paused"
        ? { kind: "ready", id, toolName, input: event.input, approved: true }
        : state;
    case "started":
      return state.kind === "ready" ? { kind: "running", id, toolName, input: state.input } : state;
    case "executed":
      if (state.kind !== "running" && state.kind !== "ready") return state;
      return event.errorCode === undefined
        ? { kind: "executed", id, toolName, input: state.input, result: event.result }
        : { kind: "executed", id, toolName, input: state.input, result: event.result, errorCode: event.errorCode };
    case "result-changed":
      return state.kind === "executed" ? { ...state, result: event.result } : state;
    case "end":
      if (state.kind === "refused") {
        return { kind: "ended", id, toolName, result: errorResult(state.message), errorCode: state.code };
      }
      if (state.kind !== "executed") return state;
      // The error code stays only while the result is an error: an after hook may have turned it into a success.
      return state.result.isError === true && state.errorCode !== undefined
        ? { kind: "ended", id, toolName, result: state.result, errorCode: state.errorCode }
        : { kind: "ended", id, toolName, result: state.result };
    case "failed":
      return state.kind === "ended"
        ? state
        : { kind: "ended", id, toolName, result: errorResult(event.message), errorCode: "execution-failed" };
  }
}
