// A framework's own approval step (the AI SDK's needsApproval, the Agents SDK's interruptions) standing in for
// toolwire's.
import { inputDigest } from "../core/approve/input-digest.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { dropNullOptionals } from "../core/dispatch/strip-nulls.js";
import { isRecord } from "../core/json.js";
import type { DispatchOptions, JsonObject } from "../core/types.js";

/** Who asks a person when the session's approvals require it: the framework's approval step, or the session. */
type ApprovalRoute = "framework" | "session";

/** What a framework tool needs to hand toolwire's approvals to the framework. */
interface FrameworkApprovals {
  /**
   * Whether the framework should ask a person before it runs this call: the session's `approvals.require`
   * says so for the model's input. Never throws (a `require` predicate that throws counts as yes).
   */
  needsApproval(toolName: string, input: unknown): boolean;
  /**
   * Dispatch options for a call the framework runs. When it needed approval (the framework asked and a person
   * said yes, or it would not run it), an approver that says yes for exactly that input, so that toolwire does
   * not ask again; if a before hook changed the input, the approver says no, since that input was not approved.
   */
  dispatchOptions(toolName: string, input: unknown, signal: AbortSignal | undefined): DispatchOptions;
}

/** The approval bridge of `session`; with route `"session"`, the framework never asks and the session decides. */
export function frameworkApprovals(session: AgentSession, route: ApprovalRoute): FrameworkApprovals {
  /** The input as dispatch will judge it (optional nulls dropped), when the session's approvals require it. */
  const requiredInput = (toolName: string, input: unknown): JsonObject | undefined => {
    const approvals = session.approvals;
    if (route === "session" || approvals === undefined || !isRecord(input)) return undefined;
    const descriptor = session.activeTools.get(toolName)?.descriptor;
    if (descriptor === undefined) return undefined; // dispatch refuses it before any approval
    const judged = dropNullOptionals(descriptor.inputSchema, input as JsonObject);
    try {
      return approvals.requires({ toolName, input: judged, descriptor }) ? judged : undefined;
    } catch {
      return judged;
    }
  };
  return {
    needsApproval: (toolName, input) => requiredInput(toolName, input) !== undefined,
    dispatchOptions(toolName, input, signal) {
      const base: DispatchOptions = signal === undefined ? {} : { signal };
      const approvedInput = requiredInput(toolName, input);
      if (approvedInput === undefined) return base;
      const approved = inputDigest(approvedInput);
      return {
        ...base,
        approver: (request) =>
          request.inputDigest === approved
            ? { approve: true }
            : { approve: false, reason: "a beforeToolCall hook changed the input after a person approved it" },
      };
    },
  };
}
