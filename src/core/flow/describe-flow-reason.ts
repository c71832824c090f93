// Why flow rules ask about a call, in one sentence for whoever answers it (a terminal, an MCP client, the inspector).
import type { ApprovalRequest } from "../types.js";

/** The sentence for a request flow rules made (`reason: "untrusted-content"`); `undefined` for any other request. */
export function describeFlowReason(request: ApprovalRequest): string | undefined {
  if (request.reason !== "untrusted-content") return undefined;
  const sources = request.sources ?? [];
  const named = sources
    .slice(0, 5)
    .map((source) => `${source.toolName} (${source.toolCallId})`)
    .join(", ");
  const more = sources.length > 5 ? ` and ${sources.length - 5} more` : "";
  return `Asked because untrusted content is in this conversation (from ${named}${more}): check that you, not that content, want this call.`;
}
