// Benchmark: one turn of 100 no-op calls through `session.dispatchAll` and the Anthropic results message, per call,
// against the floor (the same calls made directly), for valid and for invalid input: this build, and an earlier build
// when `--baseline DIR` names a folder holding its dist/ (a checkout of an older commit, built with
// `npx tsc -p tsconfig.build.json`). Every case runs in this one process, in interleaved rounds, and the tables show
// medians: a shared machine's load then falls on every case alike, so the ratios hold even when the absolute
// figures move from run to run.
// Run: npm run bench:dispatch [-- --baseline DIR] [--rounds N]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as current from "../dist/index.js";
import { NOOP_DESCRIPTION, NOOP_NAME, NOOP_SCHEMA, noop, turnCalls } from "./lib/workload.js";

const CALLS = 100;
/** Turns per timed stretch: long enough for the CPU clock (microseconds) to resolve a call's cost. */
const TURNS = 1000;

function flag(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
const baselineDir = flag("--baseline");
const rounds = Number(flag("--rounds") ?? 9);

/** A turn over one build: the calls dispatched, then the results message the model gets. */
function turnOf(api) {
  const tool = api.defineTool({
    name: NOOP_NAME,
    description: NOOP_DESCRIPTION,
    inputSchema: NOOP_SCHEMA,
    execute: noop,
  });
  const session = api.createAgentSession({ registry: api.createToolRegistry({ custom: [tool] }) });
  return async (calls) => api.anthropic.formatToolResults(await session.dispatchAll(calls), calls);
}

async function floor(calls) {
  const results = [];
  for (const call of calls) results.push(await noop(call.input));
  return results;
}

/** CPU nanoseconds per call: a stretch of turns of `calls` less the same stretch of empty turns. */
async function perCall(turn, calls) {
  const stretch = async (input) => {
    const start = process.cpuUsage();
    for (let index = 0; index < TURNS; index++) await turn(input);
    const used = process.cpuUsage(start);
    return ((used.user + used.system) * 1000) / TURNS;
  };
  return ((await stretch(calls)) - (await stretch([]))) / calls.length;
}

const builds = [["this build", turnOf(current)]];
if (baselineDir !== undefined) {
  const baseline = await import(pathToFileURL(resolve(baselineDir, "dist/index.js")).href);
  builds.push([`baseline (${baselineDir})`, turnOf(baseline)]);
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const format = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);

const measured = {};
for (const variant of ["valid", "invalid"]) {
  const calls = turnCalls(CALLS, variant);
  for (let index = 0; index < 300; index++) {
    for (const [, turn] of builds) await turn(calls);
    await floor(calls);
  }
  const samples = { floor: [] };
  for (const [name] of builds) samples[name] = [];
  for (let round = 0; round < rounds; round++) {
    samples.floor.push(await perCall(floor, calls));
    for (const [name, turn] of builds) samples[name].push(await perCall(turn, calls));
  }
  measured[variant] = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

console.log(`dispatchAll of ${CALLS} calls, per call, medians of ${rounds} interleaved rounds (CPU clock)\n`);
console.log("| case | valid | over the floor | invalid | over the floor | invalid / valid |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const name of ["floor", ...builds.map(([build]) => build)]) {
  const valid = measured.valid[name];
  const invalid = measured.invalid[name];
  const over = (ns, variant) => `${(ns / measured[variant].floor).toFixed(2)}x`;
  console.log(
    `| ${name} | ${format(valid)} | ${over(valid, "valid")} | ${format(invalid)} | ${over(invalid, "invalid")} | ${(invalid / valid).toFixed(2)}x |`,
  );
}
