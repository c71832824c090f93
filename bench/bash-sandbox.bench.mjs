// Benchmark: what the sandbox adds to one `bash {"command":"true"}` call, sandboxed against unsandboxed in one run.
// Run: npm run bench:sandbox   (target: under 20 ms added per call). Needs bubblewrap (see docs/sandbox.md).
// mitata measures each case; then the cases are interleaved call by call (ROUNDS of each) so that the load of a
// shared machine hits them alike, and the median of each is the figure docs/benchmarks.md records.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bench, run, summary } from "mitata";
import { createBuiltinTools, describeSandbox, detectSandbox, resolveSandboxOptions } from "../dist/builtins/index.js";
import { median } from "./lib/figures.js";

const ROUNDS = Number(process.env.ROUNDS ?? 60);
const root = await mkdtemp(join(tmpdir(), "toolwire-bench-sandbox-"));
const support = await detectSandbox();
if (!support.usable) {
  console.error(`bubblewrap is not usable here: ${support.reason}`);
  process.exit(1);
}
const context = () => ({ toolCallId: "bench", signal: new AbortController().signal, onUpdate() {} });
const bashOf = (sandbox) => createBuiltinTools({ root, sandbox }).find((tool) => tool.descriptor.name === "bash");
const cases = {
  "unsandboxed (sandbox off, PID namespace)": bashOf("off"),
  "bubblewrap, network off": bashOf({ mode: "required" }),
  "bubblewrap, allowHosts proxy": bashOf({ mode: "required", network: { allowHosts: ["example.com"] } }),
};
const call = async (tool) => {
  const result = await tool.execute({ command: "true" }, context());
  if (result.isError) throw new Error(`bash failed: ${JSON.stringify(result.content)}`);
};
for (const tool of Object.values(cases)) for (let i = 0; i < 5; i++) await call(tool); // warm up

console.log(`bubblewrap: ${support.version}; process limit: ${support.processLimit.kind}`);
console.log(`sandbox: ${describeSandbox(resolveSandboxOptions({}, { root }), support)}\n`);
summary(() => {
  for (const [name, tool] of Object.entries(cases)) bench(`bash {"command":"true"}: ${name}`, () => call(tool));
});
await run();

const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, tool] of Object.entries(cases)) {
    const started = performance.now();
    await call(tool);
    samples[name].push(performance.now() - started);
  }
}
const base = median(samples["unsandboxed (sandbox off, PID namespace)"]);
console.log(`\ninterleaved, ${ROUNDS} calls of each, medians:`);
for (const [name, values] of Object.entries(samples)) {
  const value = median(values);
  console.log(`  ${name.padEnd(42)} ${value.toFixed(1).padStart(6)} ms   added: ${(value - base).toFixed(1)} ms`);
}
await rm(root, { recursive: true, force: true });
