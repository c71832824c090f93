// primeResumableStreams: a 2025 session that agreed on 2025-11-25 gets the priming event whatever a request's header
// says.
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { Server } from "@modelcontextprotocol/server";

interface PrimingDecision {
  supportsEmptySSEData?: (protocolVersion: string) => boolean;
}

/**
 * The SDK sends an SSE stream's priming event (an id, the retry delay, empty data) only when the request's
 * `mcp-protocol-version` header names 2025-11-25 or later, because older clients choke on empty data. A
 * client whose `initialize` agreed on 2025-11-25 reads empty data whatever version a later request's header
 * names, so its streams are primed too (and can be resumed with `Last-Event-ID`). The decision still goes
 * through the SDK's own check, which accepts only versions the transport supports. This reaches into the
 * transport's inner web-standard transport (the SDK is pinned to an exact version); if that shape changes,
 * nothing is changed and the SDK's rule applies.
 */
export function primeResumableStreams(transport: NodeStreamableHTTPServerTransport, server: Server): void {
  const inner = (transport as unknown as { _webStandardTransport?: PrimingDecision })._webStandardTransport;
  const decide = inner?.supportsEmptySSEData;
  if (inner === undefined || typeof decide !== "function") return;
  inner.supportsEmptySSEData = (protocolVersion) =>
    decide.call(inner, protocolVersion) || decide.call(inner, server.getNegotiatedProtocolVersion() ?? "");
}
