// Benchmark: remote executors on BullMQ (docs/workers.md) against a redis-server on loopback, with workers in their own
// processes (as `toolwire worker` runs them):
//   - per-call overhead: a no-op tool dispatched in the session's process, and the same tool on one remote worker,
//     side by side (mitata);
//   - throughput: 48 calls of a tool that waits 50 ms, all dispatched at once, on 1, 2 and 4 workers (each running
//     one call at a time), in calls per second against the ideal of 20 per worker.
// Needs Debian's redis-server (or TOOLWIRE_REDIS_SERVER); starts it on a free port and stops it, and the workers,
// by PID. Run: npm run bench:workers
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { bench, do_not_optimize, run, summary } from "mitata";
import { createBullmqExecutor } from "../dist/executors/index.js";
import { createAgentSession, createToolRegistry, defineTool } from "../dist/index.js";

const REDIS = process.env.TOOLWIRE_REDIS_SERVER ?? "/usr/bin/redis-server";
if (!existsSync(REDIS)) {
  console.error(`bench:workers needs redis-server (${REDIS} is missing; apt-get install redis-server)`);
  process.exit(1);
}
const CALLS = 48;
const WAIT_MS = 50;

const children = new Set();
const stopAll = () => {
  for (const child of children) child.kill("SIGKILL");
};
process.on("exit", stopAll);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Spawns a process and resolves once its output shows `ready`. */
function startProcess(command, args, ready, env = process.env) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
  children.add(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk) => {
      output += chunk;
      if (output.includes(ready)) resolve(child);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${command} exited (${code}):\n${output}`)));
  });
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  child.kill("SIGKILL");
  children.delete(child);
}

const tools = () => [
  defineTool({ name: "noop", description: "Does nothing", inputSchema: { type: "object" }, execute: () => "ok" }),
  defineTool({
    name: "wait",
    description: `Waits ${WAIT_MS} ms`,
    inputSchema: { type: "object" },
    execute: () => new Promise((resolve) => setTimeout(() => resolve("waited"), WAIT_MS)),
  }),
];

const WORKER = `
import { defineTool } from ${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)};
import { startBullmqWorker } from ${JSON.stringify(new URL("../dist/executors/index.js", import.meta.url).href)};
const tools = (${tools.toString()})();
const worker = await startBullmqWorker({ id: "bench", connection: process.env.REDIS_URL, tools });
console.log("worker ready");
process.on("SIGTERM", () => worker.close().then(() => process.exit(0)));
`;

const port = await freePort();
const redisChild = await startProcess(
  REDIS,
  ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
  "Ready to accept connections",
);
const url = `redis://127.0.0.1:${port}`;
const startWorker = () =>
  startProcess(
    process.execPath,
    ["--input-type=module", "-e", WORKER.replaceAll("WAIT_MS", String(WAIT_MS))],
    "worker ready",
    {
      ...process.env,
      REDIS_URL: url,
    },
  );

const executor = createBullmqExecutor({ id: "bench", connection: url });
const local = createAgentSession({ registry: createToolRegistry({ custom: tools() }) });
const remote = createAgentSession({
  registry: createToolRegistry({ custom: tools(), executors: [{ executor, tools: ["*"] }] }),
});

let n = 0;
try {
  const workers = [await startWorker()];
  const check = await remote.dispatchDetailed({ id: "check", name: "noop", input: {} });
  if (check.errorCode !== undefined) throw new Error(`the remote call failed: ${JSON.stringify(check.result)}`);

  summary(() => {
    bench("no-op tool, in the session's process", async () => {
      do_not_optimize(await local.dispatch({ id: `l${n++}`, name: "noop", input: {} }));
    });
    bench("no-op tool, on one remote worker (BullMQ, loopback Redis)", async () => {
      do_not_optimize(await remote.dispatch({ id: `r${n++}`, name: "noop", input: {} }));
    });
  });
  await run();

  console.log(
    `\nthroughput: ${CALLS} calls of ${WAIT_MS} ms at once, each worker one call at a time (${availableParallelism()} cores)`,
  );
  console.log("| workers | wall time | calls/s | ideal calls/s | of ideal |");
  console.log("|---:|---:|---:|---:|---:|");
  for (const count of [1, 2, 4]) {
    while (workers.length < count) workers.push(await startWorker());
    // A warm-up round, then the measured one.
    for (const round of ["warm", "measured"]) {
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: CALLS }, () => remote.dispatchDetailed({ id: `t${n++}`, name: "wait", input: {} })),
      );
      const wall = performance.now() - started;
      if (outcomes.some((outcome) => outcome.errorCode !== undefined)) throw new Error("a throughput call failed");
      if (round === "warm") continue;
      const perSecond = (CALLS / wall) * 1000;
      const ideal = count * (1000 / WAIT_MS);
      console.log(
        `| ${count} | ${wall.toFixed(0)} ms | ${perSecond.toFixed(1)} | ${ideal.toFixed(0)} | ${((perSecond / ideal) * 100).toFixed(0)}% |`,
      );
    }
  }
  await Promise.all(workers.map(stop));
} finally {
  await executor.close();
  await stop(redisChild);
  stopAll();
}
