// Benchmark: what telemetry costs a dispatch (docs/telemetry.md). Side by side in one run, one synchronous tool:
//   - no telemetry and no phase listener (the hot path, which must pay nothing);
//   - the same on an earlier build, when `--baseline DIR` names a folder holding its dist/ (a checkout of an older
//     commit, built with `npx tsc -p tsconfig.build.json`);
//   - a `tool_call_phase` listener (what the inspector adds);
//   - telemetry with no SDK registered (the API's non-recording spans);
//   - telemetry with the SDK's BasicTracerProvider and no span processor (every span made, none exported);
//   - the same with an in-memory exporter (spans made and kept: the upper bound short of the network).
// Run: npm run bench:telemetry [-- --baseline DIR]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { metrics, trace } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { bench, do_not_optimize, run, summary } from "mitata";
import { createAgentSession, createToolRegistry, defineTool } from "../dist/index.js";

const baselineAt = process.argv.indexOf("--baseline");
const baselineDir = baselineAt === -1 ? undefined : process.argv[baselineAt + 1];

function sessionOver(api, options = {}) {
  const echo = api.defineTool({
    name: "echo",
    description: "Echoes its text back",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: (input) => input.text,
  });
  return api.createAgentSession({ registry: api.createToolRegistry({ custom: [echo] }), ...options });
}

const current = { createAgentSession, createToolRegistry, defineTool };
const exporter = new InMemorySpanExporter();
const exporting = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const recording = new BasicTracerProvider();
const meter = new MeterProvider().getMeter("bench");

const cases = [
  ["no telemetry (the hot path)", sessionOver(current)],
  ["tool_call_phase listener", sessionOver(current)],
  ["telemetry, no SDK (non-recording)", sessionOver(current, { telemetry: { tracer: trace.getTracer("bench") } })],
  [
    "telemetry, SDK tracer, nothing exported",
    sessionOver(current, { telemetry: { tracer: recording.getTracer("bench"), meter } }),
  ],
  [
    "telemetry, SDK tracer, in-memory exporter",
    sessionOver(current, { telemetry: { tracer: exporting.getTracer("bench"), meter } }),
  ],
];
cases[1][1].on("tool_call_phase", (event) => do_not_optimize(event));
if (baselineDir !== undefined) {
  const before = await import(pathToFileURL(resolve(baselineDir, "dist/index.js")).href);
  cases.unshift([`no telemetry, baseline build (${baselineDir})`, sessionOver(before)]);
}

let n = 0;
for (const [, session] of cases) {
  const block = await session.dispatch({ id: "check", name: "echo", input: { text: "ok" } });
  if (block.content[0]?.text !== "ok") throw new Error("a case does not dispatch");
}
summary(() => {
  for (const [name, session] of cases) {
    bench(name, async () => {
      do_not_optimize(await session.dispatch({ id: `c${n++}`, name: "echo", input: { text: "hi" } }));
      if (exporter.getFinishedSpans().length > 10_000) exporter.reset();
    });
  }
});
await run();
metrics.disable();
await exporting.shutdown();
await recording.shutdown();
