// A raw MCP 2026-07-28 request, as a client without an SDK sends one: the protocol's fields ride in `_meta`.

/** The `_meta` of a 2026-07-28 request: the protocol version, the client's capabilities and its name. */
export function modernMeta(capabilities: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
}
