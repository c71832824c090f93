// Why flow rules ask about a call, in one sentence for whoever answers it (a terminal, an MCP client, the inspector).
import type { ApprovalRequest } from "../types.js";
import { nameFlowSources } from "./name-flow-sources.js";

/** The sentence for a request flow rules made (`reason: "untrusted-content"`); `undefined` for any other request. */
export function describeFlowReason(request: ApprovalRequest): string | undefined {
  if (request.reason !== "untrusted-content") return undefined;
  const from = nameFlowSources(request.sources ?? []);
  return `Asked because untrusted content is in this conversation (from ${from}): check that you, not that content, want this call.`;
}
