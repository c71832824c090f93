// The flooding principal of the gateway benchmark, in a process of its own so its clients' work does not slow the
// measured principal's: argv <url> <token> <seconds> <clients>. Back-to-back tools/call requests; 429s are expected.
const [url, token, seconds, clients] = process.argv.slice(2);
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "flood", version: "1" },
};
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "noop",
  authorization: `Bearer ${token}`,
};
const end = performance.now() + Number(seconds) * 1000;
let id = 0;
const counts = {};
await Promise.all(
  Array.from({ length: Number(clients) }, async () => {
    while (performance.now() < end) {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/call",
        params: { name: "noop", arguments: {}, _meta: meta },
      });
      const response = await fetch(url, { method: "POST", headers, body });
      await response.text();
      counts[response.status] = (counts[response.status] ?? 0) + 1;
    }
  }),
);
console.log(JSON.stringify(counts));
