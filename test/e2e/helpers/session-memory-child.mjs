// Opens and abandons many 2025-era MCP sessions on a gateway in this process, waits for them to expire, and
// prints one JSON line of heap figures (run with --expose-gc). argv: <dist folder> <sessions> <idle timeout ms>.
import { pathToFileURL } from "node:url";

const [dist, count, idle] = process.argv.slice(2);
const { createAgentSession, createToolRegistry, defineTool } = await import(pathToFileURL(`${dist}/index.js`).href);
const { serveMcp } = await import(pathToFileURL(`${dist}/mcp/index.js`).href);

const TOKEN = "memory-test-token-0123456789";
const echo = defineTool({
  name: "echo",
  description: "Echoes text",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  execute: ({ text }) => String(text),
});
const handle = await serveMcp(() => createAgentSession({ registry: createToolRegistry({ custom: [echo] }) }), {
  transport: "http",
  port: 0,
  auth: { tokens: [{ token: TOKEN, principal: "alice" }] },
  // Far above the default caps (100 per principal, 1,000 in all): this burst is all one principal's.
  sessions: { idleTimeoutMs: Number(idle), maxPerPrincipal: 100_000, max: 100_000 },
});

const heap = () => {
  for (let round = 0; round < 4; round++) globalThis.gc();
  return process.memoryUsage().heapUsed;
};
async function open() {
  const response = await fetch(handle.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${TOKEN}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "abandoned", version: "1" } },
    }),
  });
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}`);
  await response.text();
}
async function burst(total) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        next++;
        await open();
      }
    }),
  );
}
async function drained() {
  const deadline = Date.now() + 60_000;
  while (handle.sessions > 0 || handle.principals > 0) {
    if (Date.now() > deadline) throw new Error(`${handle.sessions} sessions never expired`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Warm up (modules, JIT, the principal's first session), then let that expire: the baseline.
await burst(200);
await drained();
const baseline = heap();
await burst(Number(count));
const opened = handle.sessions;
const peak = heap();
await drained();
const after = heap();
await handle.close();
console.log(JSON.stringify({ opened, baseline, peak, after }));
