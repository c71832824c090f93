// The request every client of the gateway benchmark sends: a 2026-07-28 tools/call of the no-op tool.

/** The headers of a 2026-07-28 tools/call of `noop`, with the bearer token. */
export function noopCallHeaders(token) {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "noop",
    authorization: `Bearer ${token}`,
  };
}

/** The body of that call, with its request id. */
export function noopCallBody(id) {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "noop",
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      },
    },
  });
}
