// One benchmark process: loads one library's cases, checks each does its job, measures them, writes JSON.
// Usage: node --expose-gc bench/runner.js <process> <out.json> [--tool-counts 10,100] [--verify-only]
import { writeFileSync } from "node:fs";
import { measureCases, verifyCases } from "./lib/harness.js";
import { MCP_BRIDGE_PROCESS, PROCESSES } from "./lib/processes.js";

async function main() {
  const [name, out, ...flags] = process.argv.slice(2);
  const modules = (PROCESSES[name] ?? MCP_BRIDGE_PROCESS[name])?.modules;
  if (modules === undefined || out === undefined) {
    throw new Error(`usage: runner.js <${Object.keys(PROCESSES).join("|")}|mcp-bridge> <out.json>`);
  }
  const countsFlag = flags.indexOf("--tool-counts");
  const toolCounts = countsFlag === -1 ? undefined : flags[countsFlag + 1].split(",").map(Number);
  const started = Date.now();
  const report = { process: name, node: process.version, libraries: [], rows: [], facts: {} };
  const loaded = [];
  try {
    for (const module of modules) loaded.push(await import(`./peers/${module}.js`));
    let measured = [];
    for (const [index, module] of loaded.entries()) {
      const cases = await module.createCases({ toolCounts }); // the MCP slot starts its servers, so may be async
      await verifyCases(cases); // in the shared process, this also runs every peer once before toolwire
      report.libraries.push(module.describe());
      Object.assign(report.facts, (await module.facts?.({ toolCounts })) ?? {});
      const last = index === loaded.length - 1;
      if (name !== "toolwire-with-peers" || last) measured = cases;
    }
    const options = loaded.at(-1)?.measureOptions;
    if (!flags.includes("--verify-only")) report.rows = await measureCases(measured, options);
  } catch (error) {
    report.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    // Stops whatever a module started (the MCP slot's server processes), so this process can exit.
    for (const module of loaded) await module.close?.();
  }
  report.durationMs = Date.now() - started;
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  if (report.error !== undefined) process.exitCode = 1;
}

await main();
