// Benchmark: cold start. In one run, in interleaved rounds (a shared machine's load then falls on every case alike):
//   - the CPU time (user + system, the child's own resource usage) of `node -e ""` against a consumer's
//     `await import("toolwire")` (a temporary project whose node_modules links this package, so the import resolves
//     as a user's does, through the package's exports, to the built dist/);
//   - the wall and CPU time of `toolwire serve` (stdio, no config: the built-ins) until it answers its first
//     `tools/list`, against an MCP SDK stdio server (bench/cold-start/sdk-server.mjs) serving the same tools (names,
//     descriptions and JSON Schemas, copied from toolwire's answer) until it answers its own. A server's CPU is read
//     from /proc/<pid>/task/*/schedstat (every thread's time on a CPU, in ns) when the answer arrives; a child it
//     started (toolwire's sandbox probe runs bwrap) is not counted.
// With `--baseline DIR` (an older commit's checkout, built, with a node_modules: a link to this one's will do), its
// import and its serve run in the same rounds, for a before and after on the same load.
// Prints medians with the interquartile range, and the ratios against the targets of docs/benchmarks.md.
// Run: npm run bench:cold-start [-- --rounds N] [--baseline DIR]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { flag } from "./lib/args.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const sdkServer = join(root, "bench", "cold-start", "sdk-server.mjs");

const rounds = Number(flag("--rounds") ?? 20);
const baseline = flag("--baseline");

const scratch = mkdtempSync(join(tmpdir(), "toolwire-cold-start-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
/** A consumer of the package at `packageRoot`: a project with toolwire in its node_modules, as `npm install` leaves it. */
function consumerOf(packageRoot, name) {
  const folder = join(scratch, name);
  mkdirSync(join(folder, "node_modules"), { recursive: true });
  symlinkSync(packageRoot, join(folder, "node_modules", "toolwire"), "dir");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return folder;
}
/** The builds measured: this one, and the baseline when named. */
const builds = [{ label: "", consumer: consumerOf(root, "consumer"), cli: join(root, "dist", "cli", "main.js") }];
if (baseline !== undefined) {
  const packageRoot = resolve(baseline);
  builds.push({
    label: " (baseline)",
    consumer: consumerOf(packageRoot, "baseline-consumer"),
    cli: join(packageRoot, "dist", "cli", "main.js"),
  });
}
// Where the servers run: an empty folder, so `toolwire serve` reads no config and serves the built-ins.
const workspace = join(scratch, "workspace");
mkdirSync(workspace);

/** Reports the process's own CPU time (µs) on stdout as it exits; the same few microseconds in every case. */
const REPORT =
  'process.on("exit",()=>{const u=process.resourceUsage();process.stdout.write("cpu "+(u.userCPUTime+u.systemCPUTime))});';

/** CPU microseconds of `node <args>` run to its end in a consumer project, as the child itself counts them. */
function cpuOfNode(args, cwd = builds[0].consumer) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const match = /cpu (\d+)/.exec(text);
      if (code !== 0 || match === null) reject(new Error(`node ${args.join(" ")} exited with ${code}: ${text}`));
      else resolve(Number(match[1]));
    });
  });
}

/** Every thread's time on a CPU so far, in µs (the thread group's schedstat, summed). */
function cpuOfProcess(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {} // a thread that ended as we read
  }
  return ns / 1000;
}

const send = (child, message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

/**
 * Starts an MCP stdio server, sends `initialize`, `notifications/initialized` and `tools/list` as a client does, and
 * measures from the spawn to the `tools/list` answer: wall ms and the server's CPU µs. Then closes its stdin and
 * waits for it to exit.
 */
function timeToFirstList(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: workspace, stdio: ["pipe", "pipe", "ignore"] });
    let buffer = "";
    let result;
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send(child, { method: "notifications/initialized" });
          send(child, { id: 2, method: "tools/list" });
        } else if (message.id === 2) {
          const wallMs = performance.now() - started;
          result = { wallMs, cpuUs: cpuOfProcess(child.pid), tools: message.result.tools };
          child.stdin.end();
        }
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (result === undefined) reject(new Error(`node ${args.join(" ")} exited with ${code} before its tools/list`));
      else resolve(result);
    });
    send(child, {
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cold-start", version: "1" } },
    });
  });
}

// The SDK server serves what toolwire serves: its first answer, copied.
const served = await timeToFirstList([builds[0].cli, "serve"]);
const toolsFile = join(scratch, "tools.json");
writeFileSync(
  toolsFile,
  JSON.stringify(served.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))),
);
const peer = await timeToFirstList([sdkServer, toolsFile]);
if (peer.tools.length !== served.tools.length) throw new Error("the SDK server does not list the same tools");

const cases = {
  "node -e ''": () => cpuOfNode(["-e", REPORT]),
  "node --input-type=module -e ''": () => cpuOfNode(["--input-type=module", "-e", REPORT]),
  "MCP SDK server": () => timeToFirstList([sdkServer, toolsFile]),
};
for (const build of builds) {
  const importArgs = ["--input-type=module", "-e", `${REPORT}await import("toolwire");`];
  cases[`import("toolwire")${build.label}`] = () => cpuOfNode(importArgs, build.consumer);
  cases[`toolwire serve${build.label}`] = () => timeToFirstList([build.cli, "serve"]);
}
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (const run of Object.values(cases)) await run(); // the files into the page cache
for (let round = 0; round < rounds; round++) {
  // Each round starts at a different case, so none always runs first after a pause.
  const names = Object.keys(cases);
  const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
  for (const name of order) samples[name].push(await cases[name]());
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  return sorted[low] + (sorted[Math.ceil(position)] - sorted[low]) * (position - low);
};
/** Median and interquartile range. */
const spread = (values, digits = 1) =>
  `${quantile(values, 0.5).toFixed(digits)} (${quantile(values, 0.25).toFixed(digits)}-${quantile(values, 0.75).toFixed(digits)})`;
/** The ratio of the medians, and the interquartile range of the rounds' own ratios (each round's pair ran close). */
const ratioOf = (over, under) => {
  const perRound = over.map((value, index) => value / under[index]);
  const medians = quantile(over, 0.5) / quantile(under, 0.5);
  return `${medians.toFixed(2)}x (rounds ${quantile(perRound, 0.25).toFixed(2)}-${quantile(perRound, 0.75).toFixed(2)}x)`;
};

const ms = (us) => us / 1000;
const bare = samples["node -e ''"].map(ms);
console.log(`Cold start, ${rounds} interleaved rounds, ${process.version}; median (interquartile range)\n`);
console.log("| case | CPU ms | over node -e '' |");
console.log("|---|---:|---:|");
console.log(`| node -e '' | ${spread(bare)} | 1.00x |`);
for (const name of ["node --input-type=module -e ''", ...builds.map((build) => `import("toolwire")${build.label}`)]) {
  const values = samples[name].map(ms);
  console.log(`| ${name} | ${spread(values)} | ${ratioOf(values, bare)} |`);
}
console.log(`\n${served.tools.length} tools listed by each server (toolwire's built-ins)\n`);
console.log("| case | wall ms to the first tools/list | CPU ms by then | wall over the SDK's | CPU over the SDK's |");
console.log("|---|---:|---:|---:|---:|");
const sdk = samples["MCP SDK server"];
for (const name of ["MCP SDK server", ...builds.map((build) => `toolwire serve${build.label}`)]) {
  const wall = samples[name].map((value) => value.wallMs);
  const cpu = samples[name].map((value) => value.cpuUs);
  const sdkWall = sdk.map((value) => value.wallMs);
  const sdkCpu = sdk.map((value) => value.cpuUs);
  console.log(
    `| ${name} | ${spread(wall)} | ${spread(cpu.map(ms))} | ${ratioOf(wall, sdkWall)} | ${ratioOf(cpu, sdkCpu)} |`,
  );
}
console.log("\nTargets: import(\"toolwire\") at most 1.6x node -e ''; toolwire serve at most 1.2x the MCP SDK server.");
