// isLegacyRequest: whether the SDK's handler would take a POST for a 2025-era request (a session) or a 2026-07-28 one.
import type { IncomingMessage } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";

/**
 * Whether the SDK's handler would take this POST for a 2025-era request: the SDK's own classification, read from
 * the Node request's headers and the parsed body (not a web Request built for the question, which costs a copy).
 */
export function isLegacyRequest(request: IncomingMessage, body: unknown): boolean {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: header("mcp-protocol-version"),
    mcpMethodHeader: header("mcp-method"),
    mcpNameHeader: header("mcp-name"),
    body,
  });
  return outcome.kind === "legacy";
}
