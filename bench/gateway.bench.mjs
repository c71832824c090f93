// Benchmark: throughput and p99 latency of `tools/call` under 8 and 32 concurrent clients, toolwire's gateway
// (auth, a session per principal, rate limit and audit log on) against the SDK's bare stateless server over one
// no-op tool. Run: npm run bench:gateway. Each server is its own process; the clients (raw 2026-07-28 requests
// over keep-alive HTTP) run here. Rounds alternate between the two, so machine load hits both alike.
// Flags: --baseline DIR (also the gateway of an older build whose dist/ is in DIR, in the same rotation),
// --rounds N, --seconds S, --no-fairness (throughput only). Each round also reads the servers' own CPU time
// (/proc/<pid>/task/*/schedstat, Linux) per call answered.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { noopCallBody, noopCallHeaders } from "./gateway/noop-call.mjs";
import { flag } from "./lib/args.js";
import { median } from "./lib/figures.js";

const SERVER = fileURLToPath(new URL("./gateway/gateway-server.mjs", import.meta.url));
const FLOOD = fileURLToPath(new URL("./gateway/flood.mjs", import.meta.url));
const ROUNDS = Number(flag("--rounds") ?? process.env.ROUNDS ?? 5);
const SECONDS = Number(flag("--seconds") ?? process.env.SECONDS ?? 3);
const BASELINE = flag("--baseline");
const FAIRNESS = !process.argv.includes("--no-fairness");
const CONCURRENCY = [8, 32];
const TOKEN = "bench-token-0123456789";
const FLOODER = "flood-token-0123456789";

function start(kind, auditFile, callsPerMinute, dist) {
  const args = [
    SERVER,
    kind,
    auditFile,
    String(callsPerMinute ?? 1_000_000_000),
    ...(dist === undefined ? [] : [dist]),
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const match = /(http:\/\/\S+\/mcp)/.exec(text);
      if (match) resolve({ url: match[1], child });
    });
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

/**
 * `clients` loops of back-to-back calls for `seconds` (or, with `pace`, one call every `pace` ms per loop); the calls
 * answered 200, and their p99 latency in ms. A 429 (over the rate limit) is counted apart.
 */
async function load(url, clients, seconds, token = TOKEN, pace = 0) {
  const headers = noopCallHeaders(token);
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  let id = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const response = await fetch(url, { method: "POST", headers, body: noopCallBody(++id) });
        const text = await response.text();
        if (response.status === 429) continue;
        if (response.status !== 200 || !text.includes('"ok"'))
          throw new Error(`bad answer ${response.status}: ${text}`);
        const took = performance.now() - started;
        latencies.push(took);
        if (pace > took) await new Promise((resolve) => setTimeout(resolve, pace - took));
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    perSecond: latencies.length / seconds,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
  };
}

/** Every thread's time on a CPU so far, in ms (the thread group's schedstat, summed; Linux); NaN where there is none. */
function cpuMsOf(pid) {
  let ns = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {} // a thread that ended as we read
    }
  } catch {
    return Number.NaN;
  }
  return ns / 1e6;
}

/** `load` on one server, with the server's CPU time per call answered (µs). */
async function measured(server, clients, seconds) {
  const before = cpuMsOf(server.child.pid);
  const result = await load(server.url, clients, seconds);
  return { ...result, cpuPerCall: ((cpuMsOf(server.child.pid) - before) * 1000) / result.calls };
}

const folder = await mkdtemp(join(tmpdir(), "toolwire-gateway-bench-"));
const servers = {
  bare: await start("bare", join(folder, "unused.jsonl")),
  toolwire: await start("toolwire", join(folder, "audit.jsonl")),
  ...(BASELINE === undefined
    ? {}
    : { baseline: await start("toolwire", join(folder, "baseline.jsonl"), undefined, resolve(BASELINE, "dist")) }),
  // For fairness: 1,200 calls a minute per principal; the paced principal (10 a second) stays under it.
  ...(FAIRNESS ? { limited: await start("toolwire", join(folder, "limited.jsonl"), 1_200) } : {}),
};
const spread = (values) => `${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}`;
try {
  const kinds = BASELINE === undefined ? ["bare", "toolwire"] : ["bare", "toolwire", "baseline"];
  for (const kind of kinds) await load(servers[kind].url, 8, 1); // warm-up
  if (FAIRNESS) await load(servers.limited.url, 1, 1, TOKEN, 100); // the paced principal's session, made before it is measured
  console.log(
    `tools/call of a no-op tool, ${ROUNDS} rotating rounds of ${SECONDS} s, medians (ratios within each round: median, lowest-highest)`,
  );
  for (const clients of CONCURRENCY) {
    const rounds = Object.fromEntries(kinds.map((kind) => [kind, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(round + k) % kinds.length];
        rounds[kind].push(await measured(servers[kind], clients, SECONDS));
      }
    }
    console.log(`\n${clients} clients`);
    console.log("| server | calls/s | over bare | p99 ms | over bare | server CPU µs per call | over bare |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const kind of kinds) {
      const within = (field) => rounds[kind].map((r, index) => r[field] / rounds.bare[index][field]);
      const cells = ["perSecond", "p99", "cpuPerCall"].map(
        (field) =>
          `${median(rounds[kind].map((r) => r[field])).toFixed(field === "p99" ? 2 : 0)} | ${median(within(field)).toFixed(3)}x (${spread(within(field))})`,
      );
      console.log(`| ${kind} | ${cells.join(" | ")} |`);
    }
  }
  // Fairness: one principal making 10 calls a second, alone and while another principal floods the gateway with
  // 32 clients of back-to-back calls from a process of its own: without a rate limit (the worst case), and with one (1,200 a minute) that the
  // flood uses up within about a second, after which it is answered 429.
  const fairness = FAIRNESS
    ? [
        ["no rate limit", servers.toolwire],
        ["rate limit", servers.limited],
      ]
    : [];
  for (const [label, server] of fairness) {
    const alone = [];
    const flooded = [];
    for (let round = 0; round < ROUNDS; round++) {
      alone.push((await load(server.url, 1, SECONDS, TOKEN, 100)).p99);
      const flood = spawn(process.execPath, [FLOOD, server.url, FLOODER, String(SECONDS + 2), "32"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const floodEnded = new Promise((resolve) => flood.once("exit", resolve));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      flooded.push((await load(server.url, 1, SECONDS, TOKEN, 100)).p99);
      await floodEnded;
    }
    console.log(
      `fairness (${label}): a paced principal's p99 alone ${median(alone).toFixed(2)} ms, while another floods ${median(flooded).toFixed(2)} ms (${(median(flooded) / median(alone)).toFixed(2)}x)`,
    );
  }
} finally {
  for (const { child } of Object.values(servers)) child.kill("SIGTERM");
  await rm(folder, { recursive: true, force: true });
}
