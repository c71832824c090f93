// `toolwire run --approve`: an approver that says yes ahead to the tools named, and no, naming the flag, to the rest.
import { compilePolicyPattern } from "../core/filter/policy.js";
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "../core/types.js";

/**
 * The approver `--approve <pattern,...|all>` stands for: calls of tools matching a pattern (policy
 * syntax: `write`, `group:fs`, `mcp:github`, `*`) are approved; every other call that needs approval
 * is declined with a reason that says how to allow it. With no patterns, everything is declined so. Calls flow rules
 * ask about (untrusted content in the session) are never approved ahead.
 */
export function approveAhead(patterns: readonly string[]): (request: ApprovalRequest) => ApprovalDecision;
/** The same, but the calls the patterns do not approve go to `otherwise` (the inspector's page) instead of a no. */
export function approveAhead(
  patterns: readonly string[],
  otherwise: NonNullable<ApprovalOptions["approver"]>,
): NonNullable<ApprovalOptions["approver"]>;
export function approveAhead(
  patterns: readonly string[],
  otherwise?: NonNullable<ApprovalOptions["approver"]>,
): NonNullable<ApprovalOptions["approver"]> {
  const all = patterns.some((pattern) => pattern.trim().toLowerCase() === "all");
  const matchers = patterns.map((pattern) => compilePolicyPattern(pattern));
  return (request, context) => {
    const { toolName, descriptor } = request;
    if (request.reason === "untrusted-content") {
      // Flow rules want a person at the moment untrusted content may steer the call: an answer given ahead is not one.
      if (otherwise !== undefined) return otherwise(request, context);
      return {
        approve: false,
        reason: `${toolName} was asked about because untrusted content is in this conversation (flow rules), and --approve does not answer for that; run toolwire run on a terminal to be asked`,
      };
    }
    if (all || matchers.some((matches) => matches(descriptor, toolName.toLowerCase()))) return { approve: true };
    if (otherwise !== undefined) return otherwise(request, context);
    return {
      approve: false,
      reason: `${toolName} needs approval, and this run approved only what --approve names (${
        patterns.length === 0 ? "nothing" : patterns.join(", ")
      }); run toolwire run again with --approve ${toolName} to allow it`,
    };
  };
}

/** The patterns of one `--approve` value: comma-separated, blanks dropped. */
export function parseApprovePatterns(value: string, previous: readonly string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((pattern) => pattern.trim())
      .filter((pattern) => pattern !== ""),
  ];
}
