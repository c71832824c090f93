// isLegacyRequest: whether the SDK's handler would take a POST for a 2025-era request (a session) or a 2026-07-28 one.
import type { IncomingMessage } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { isRecord } from "../../../core/json.js";

/** The protocol revision whose requests name it in the `MCP-Protocol-Version` header and their `_meta` (stateless). */
const MODERN_REVISION = "2026-07-28";

/**
 * Whether the SDK's handler would take this POST for a 2025-era request: the SDK's own classification, read from
 * the Node request's headers and the parsed body (not a web Request built for the question, which costs a copy).
 * A request or notification (a body with a `method`) under a `2026-07-28` header is never 2025-era to the SDK
 * (it is served or refused as a 2026-07-28 one), so it skips the classification, which the SDK's handler runs
 * again anyway (about 20 µs, more than the rest of the gateway's own work on a call).
 */
export function isLegacyRequest(request: IncomingMessage, body: unknown): boolean {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const protocolVersionHeader = header("mcp-protocol-version");
  if (protocolVersionHeader === MODERN_REVISION && isRecord(body) && typeof body.method === "string") return false;
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader,
    mcpMethodHeader: header("mcp-method"),
    mcpNameHeader: header("mcp-name"),
    body,
  });
  return outcome.kind === "legacy";
}
