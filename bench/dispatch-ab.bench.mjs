// Benchmark: one turn of 100 no-op calls through `session.dispatchAll` and the Anthropic results message, per call,
// against two floors: the calls made directly (`await noop(input)`), and the same work written by hand (the input
// copied, checked by an ajv validator compiled as toolwire's is, the result block written, the results message),
// for valid and for invalid input: this build, and an earlier build when `--baseline DIR` names a folder holding its
// dist/ (a checkout of an older commit, built with `npx tsc -p tsconfig.build.json`). Every case runs in this one
// process, in interleaved rounds, and the tables show medians with the spread of the rounds (lowest-highest): a
// shared machine's load then falls on every case alike, so the ratios hold even when the absolute figures move.
// Run: npm run bench:dispatch [-- --baseline DIR] [--rounds N]
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { flag } from "./lib/args.js";
import { median } from "./lib/figures.js";
import { NOOP_DESCRIPTION, NOOP_NAME, NOOP_SCHEMA, noop, turnCalls } from "./lib/workload.js";

const CALLS = 100;
/** Turns per timed stretch: long enough for the CPU clock (microseconds) to resolve a call's cost. */
const TURNS = 1000;

const baselineDir = flag("--baseline");
const rounds = Number(flag("--rounds") ?? 9);

/** A build's API from its dist/: the root entry, with the Anthropic adapter of toolwire/providers where it has one. */
async function loadBuild(dist) {
  const root = await import(pathToFileURL(resolve(dist, "index.js")).href);
  if (root.anthropic !== undefined) return root;
  const { anthropic } = await import(pathToFileURL(resolve(dist, "providers/index.js")).href);
  return { ...root, anthropic };
}
const current = await loadBuild(fileURLToPath(new URL("../dist/", import.meta.url)));

/** A session of one build over the no-op tool. */
function sessionOf(api, options = {}) {
  const tool = api.defineTool({
    name: NOOP_NAME,
    description: NOOP_DESCRIPTION,
    inputSchema: NOOP_SCHEMA,
    execute: noop,
  });
  return api.createAgentSession({ registry: api.createToolRegistry({ custom: [tool] }), ...options });
}

/** A turn over one build: the calls dispatched, then the results message the model gets. */
function turnOf(api, options) {
  const session = sessionOf(api, options);
  return async (calls) => api.anthropic.formatToolResults(await session.dispatchAll(calls), calls);
}

/** The same calls through `session.dispatch`, one at a time (the path of a loop that runs one call per turn). */
function oneByOneOf(api) {
  const session = sessionOf(api);
  return async (calls) => {
    const blocks = [];
    for (const call of calls) blocks.push(await session.dispatch(call));
    return api.anthropic.formatToolResults(blocks, calls);
  };
}

/** A before hook and an after hook that both let the call through unchanged. */
const HOOKS = { beforeToolCall: [() => undefined], afterToolCall: [() => undefined] };

async function floor(calls) {
  const results = [];
  for (const call of calls) results.push(await noop(call.input));
  return results;
}

// The work of a dispatch written by hand: ajv with toolwire's options, a copy of the input, the error text listing
// each fault with its path, the result block, and the message that carries the blocks.
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, addUsedSchema: false, logger: false });
const check = ajv.compile(NOOP_SCHEMA);

async function byHand(calls) {
  const blocks = [];
  for (const call of calls) {
    const input = { ...call.input };
    if (!check(input)) {
      let text = `Invalid input for tool ${call.name}:`;
      for (const error of check.errors) text += `\n- input${error.instancePath}: ${error.message}`;
      blocks.push({ type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }], is_error: true });
      continue;
    }
    const text = await noop(input);
    blocks.push({ type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }] });
  }
  return { role: "user", content: blocks };
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

const apis = [["this build", current]];
if (baselineDir !== undefined) {
  apis.push([`baseline (${baselineDir})`, await loadBuild(resolve(baselineDir, "dist"))]);
}
const builds = apis.map(([name, api]) => [name, turnOf(api)]);
/** The other paths users feel, valid input only: each build's `dispatch` one call at a time, and with hooks. */
const paths = apis.flatMap(([name, api]) => [
  [`${name}, dispatch one at a time`, oneByOneOf(api)],
  [`${name}, 1 before + 1 after hook`, turnOf(api, HOOKS)],
]);
const allCases = [["floor", floor], ["by hand", byHand], ...builds];
const spread = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
const format = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);

/** Per variant and case: each round's figure, and its ratios to the two floors taken within that round. */
const measured = {};
for (const variant of ["valid", "invalid", "paths"]) {
  const calls = turnCalls(CALLS, variant === "invalid" ? "invalid" : "valid");
  const cases = variant === "paths" ? [["by hand", byHand], ...paths] : allCases;
  for (let index = 0; index < 300; index++) for (const [, turn] of cases) await turn(calls);
  const samples = Object.fromEntries(cases.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, turn] of cases) samples[name].push(await perCall(turn, calls));
  }
  measured[variant] = samples;
}

const ratios = (variant, name, over) => measured[variant][name].map((ns, round) => ns / measured[variant][over][round]);
const cell = (values) => `${median(values).toFixed(2)}x (${spread(values)})`;

console.log(`dispatchAll of ${CALLS} calls, per call, medians of ${rounds} interleaved rounds (CPU clock);`);
console.log("ratios are taken within each round, shown as the median (lowest-highest)\n");
console.log("| case | valid | over the floor | over by hand | invalid | over by hand | invalid / valid |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [name] of allCases) {
  const invalidOverValid = measured.invalid[name].map((ns, round) => ns / measured.valid[name][round]);
  console.log(
    `| ${name} | ${format(median(measured.valid[name]))} | ${cell(ratios("valid", name, "floor"))} | ${cell(ratios("valid", name, "by hand"))} | ${format(median(measured.invalid[name]))} | ${cell(ratios("invalid", name, "by hand"))} | ${cell(invalidOverValid)} |`,
  );
}

console.log(`\nOther paths, valid input, ${CALLS} calls, per call\n`);
console.log("| case | per call | over by hand |");
console.log("|---|---:|---:|");
for (const [name] of paths) {
  console.log(`| ${name} | ${format(median(measured.paths[name]))} | ${cell(ratios("paths", name, "by hand"))} |`);
}
