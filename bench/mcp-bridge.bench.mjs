// Benchmark: one MCP tool call through the bridge against a direct SDK client.callTool on server-everything (stdio).
// Run: npm run build && node bench/mcp-bridge.bench.mjs   (the bridge should add under 5%)
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { bench, do_not_optimize, run, summary } from "mitata";
import { createAgentSession, createToolRegistry } from "../dist/index.js";
import { connectMcpServer, mapCallToolResult } from "../dist/mcp/index.js";

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
const env = { PATH: process.env.PATH ?? "" };
const input = { message: "hello" };

const connection = await connectMcpServer({
  id: "everything",
  command: process.execPath,
  args: [everything, "stdio"],
  env,
});
const echo = connection.tools.find((tool) => tool.descriptor.name === "everything__echo");
const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [everything, "stdio"], env, stderr: "ignore" }),
);
const context = { toolCallId: "bench", signal: new AbortController().signal, onUpdate() {} };
let id = 0;
const sampleResult = await client.callTool({ name: "echo", arguments: input });
const where = { serverId: "everything", toolName: "echo" };

summary(() => {
  bench("direct client.callTool", async () => {
    do_not_optimize(await client.callTool({ name: "echo", arguments: input }));
  });
  bench("bridge tool.execute", async () => {
    do_not_optimize(await echo.execute(input, context));
  });
  bench("session.dispatch via bridge", async () => {
    do_not_optimize(await session.dispatch({ id: `b${++id}`, name: "everything__echo", input }));
  });
  bench("mapCallToolResult alone (the bridge's own work per call)", () => {
    do_not_optimize(mapCallToolResult(sampleResult, where));
  });
});
await run();

// Paired and interleaved, so load from elsewhere on the machine hits both sides alike.
const PAIRS = Number(process.env.PAIRS ?? 3000);
const direct = [];
const bridged = [];
const dispatched = [];
const timed = async (fn) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
const paths = [
  [direct, () => client.callTool({ name: "echo", arguments: input })],
  [bridged, () => echo.execute(input, context)],
  [dispatched, () => session.dispatch({ id: `p${++id}`, name: "everything__echo", input })],
];
for (let index = 0; index < PAIRS; index++) {
  const offset = index % paths.length; // rotate the order every iteration
  for (let k = 0; k < paths.length; k++) {
    const [samples, fn] = paths[(offset + k) % paths.length];
    const ms = await timed(fn);
    if (index >= 200) samples.push(ms); // the first 200 are warm-up
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const [d, b, s] = [median(direct), median(bridged), median(dispatched)];
console.log(`\ninterleaved, ${direct.length} calls per path, medians:`);
console.log(`  direct client.callTool        ${us(d)}`);
console.log(`  bridge tool.execute           ${us(b)}  (${(((b - d) / d) * 100).toFixed(1)}% vs direct)`);
console.log(`  session.dispatch via bridge   ${us(s)}  (${(((s - d) / d) * 100).toFixed(1)}% vs direct)`);

await client.close();
await connection.close();
