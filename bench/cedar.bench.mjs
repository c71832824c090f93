// Benchmark: what a Cedar call policy costs per call (docs/cedar.md). One decision from a policy set parsed once
// (createCedarPolicy), against a plain JavaScript CallPolicy making the same decisions; then Cedar at larger inputs
// (its time grows faster than the input, hence maxInputChars), and making the policy (loading the wasm, parsing).
// Each pass times a batch of decisions; the figure is the median pass with the lowest and highest.
// Run: npm run bench:cedar   (--passes 9 --batch 2000)
// Target (issue 30): about 0.2 ms per Cedar decision; toolwire's own flow rules stay the fast path.
import { createCedarPolicy } from "../dist/cedar/index.js";
import { flag } from "./lib/args.js";
import { figureOf } from "./lib/figures.js";

const PASSES = Number(flag("--passes") ?? 9);
const BATCH = Number(flag("--batch") ?? 2000);

const POLICIES = `@id("allow-all")
permit(principal, action, resource);

@id("no-guarded-when-tainted")
forbid(principal, action, resource) when { context.tainted && resource.guarded };

@id("no-secret-writes")
forbid(principal, action == Toolwire::Action::"write", resource)
when { context.input has path && context.input.path like "secret/*" };

@id("ci-reads-only")
forbid(principal == Toolwire::Principal::"ci", action, resource) unless { resource.effects == "none" };
`;

/** The same rules by hand. */
function plainPolicy(principal) {
  return (request) => {
    if (request.tainted && request.guarded) return { deny: true, rule: "no-guarded-when-tainted" };
    const path = request.input.path;
    if (request.toolName === "write" && typeof path === "string" && path.startsWith("secret/")) {
      return { deny: true, rule: "no-secret-writes" };
    }
    if (principal === "ci" && request.effects !== "none") return { deny: true, rule: "ci-reads-only" };
    return undefined;
  };
}

function call(toolName, input, tainted = false) {
  return Object.freeze({
    toolName,
    toolCallId: "call-1",
    input: Object.freeze(input),
    descriptor: { name: toolName, description: "", inputSchema: { type: "object" }, owner: { kind: "core" } },
    trust: "trusted",
    effects: "local",
    guarded: toolName === "bash",
    tainted,
    sources: tainted ? [{ toolCallId: "call-0", toolName: "web_fetch" }] : [],
  });
}

/** Microseconds per decision of `policy` over `requests` (cycled), pass by pass. */
function perDecisionUs(policy, requests) {
  const passes = [];
  for (let pass = 0; pass < PASSES + 1; pass++) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < BATCH; index++) policy(requests[index % requests.length]);
    const us = Number(process.hrtime.bigint() - start) / 1000 / BATCH;
    if (pass > 0) passes.push(us); // the first pass warms up
  }
  return figureOf(passes);
}

const startMade = process.hrtime.bigint();
const cedar = await createCedarPolicy({ principal: "local", policies: POLICIES, maxInputChars: 1_000_000 });
const firstMs = Number(process.hrtime.bigint() - startMade) / 1e6;
const again = [];
for (let pass = 0; pass < PASSES; pass++) {
  const start = process.hrtime.bigint();
  await createCedarPolicy({ principal: "local", policies: POLICIES });
  again.push(Number(process.hrtime.bigint() - start) / 1e6);
}
const plain = plainPolicy("local");

const typical = [
  call("write", { path: "notes/a.md", content: "Meeting notes: ship on Friday." }),
  call("write", { path: "secret/key.txt", content: "x" }),
  call("read", { path: "README.md" }),
  call("bash", { command: "ls -la" }, true),
];
// Same decisions both ways.
for (const request of typical) {
  if ((cedar(request) === undefined) !== (plain(request) === undefined))
    throw new Error(`differ on ${request.toolName}`);
}

const rows = [
  ["plain JavaScript CallPolicy, typical calls", perDecisionUs(plain, typical)],
  ["Cedar, typical calls (4 rules, inputs under 100 characters)", perDecisionUs(cedar, typical)],
];
for (const chars of [4_096, 16_384, 65_536]) {
  const big = [call("write", { path: "notes/big.md", content: "x".repeat(chars - 40) })];
  rows.push([`Cedar, one ${chars}-character input`, perDecisionUs(cedar, big)]);
}
const us = (figure) => `${figure.median.toFixed(1)} µs (${figure.min.toFixed(1)}–${figure.max.toFixed(1)})`;
console.log(`\n#### Cedar call policies (Node ${process.versions.node}, ${PASSES} passes of ${BATCH} decisions)\n`);
console.log("| case | per decision: median (lowest–highest pass) |");
console.log("|---|---:|");
for (const [label, figure] of rows) console.log(`| ${label} | ${us(figure)} |`);
const made = figureOf(again);
console.log(
  `\nMaking the policy: ${firstMs.toFixed(1)} ms the first time in the process (loading Cedar's wasm), then ${made.median.toFixed(1)} ms (${made.min.toFixed(1)}–${made.max.toFixed(1)}).`,
);
