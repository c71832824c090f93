// Benchmark: throughput and p99 latency of `tools/call` under 8 and 32 concurrent clients, toolwire's gateway
// (auth, a session per principal, rate limit and audit log on) against the SDK's bare stateless server over one
// no-op tool. Run: npm run bench:gateway. Each server is its own process; the clients (raw 2026-07-28 requests
// over keep-alive HTTP) run here. Rounds alternate between the two, so machine load hits both alike.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { noopCallBody, noopCallHeaders } from "./gateway/noop-call.mjs";

const SERVER = fileURLToPath(new URL("./gateway/gateway-server.mjs", import.meta.url));
const FLOOD = fileURLToPath(new URL("./gateway/flood.mjs", import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 3);
const CONCURRENCY = [8, 32];
const TOKEN = "bench-token-0123456789";
const FLOODER = "flood-token-0123456789";

function start(kind, auditFile, callsPerMinute) {
  const args = [SERVER, kind, auditFile, ...(callsPerMinute === undefined ? [] : [String(callsPerMinute)])];
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
  return { perSecond: latencies.length / seconds, p99: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const folder = await mkdtemp(join(tmpdir(), "toolwire-gateway-bench-"));
const servers = {
  bare: await start("bare", join(folder, "unused.jsonl")),
  toolwire: await start("toolwire", join(folder, "audit.jsonl")),
  // For fairness: 1,200 calls a minute per principal; the paced principal (10 a second) stays under it.
  limited: await start("toolwire", join(folder, "limited.jsonl"), 1_200),
};
try {
  for (const { url } of [servers.bare, servers.toolwire]) await load(url, 8, 1); // warm-up
  await load(servers.limited.url, 1, 1, TOKEN, 100); // the paced principal's session, made before it is measured
  console.log(`tools/call of a no-op tool, ${ROUNDS} alternating rounds of ${SECONDS} s, medians`);
  console.log("clients | bare calls/s | toolwire calls/s | ratio | bare p99 ms | toolwire p99 ms | p99 ratio");
  for (const clients of CONCURRENCY) {
    const rounds = { bare: [], toolwire: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? ["bare", "toolwire"] : ["toolwire", "bare"]) {
        rounds[kind].push(await load(servers[kind].url, clients, SECONDS));
      }
    }
    const bare = { perSecond: median(rounds.bare.map((r) => r.perSecond)), p99: median(rounds.bare.map((r) => r.p99)) };
    const ours = {
      perSecond: median(rounds.toolwire.map((r) => r.perSecond)),
      p99: median(rounds.toolwire.map((r) => r.p99)),
    };
    console.log(
      `${clients} | ${bare.perSecond.toFixed(0)} | ${ours.perSecond.toFixed(0)} | ${(ours.perSecond / bare.perSecond).toFixed(3)}x | ${bare.p99.toFixed(2)} | ${ours.p99.toFixed(2)} | ${(ours.p99 / bare.p99).toFixed(3)}x`,
    );
  }
  // Fairness: one principal making 10 calls a second, alone and while another principal floods the gateway with
  // 32 clients of back-to-back calls from a process of its own: without a rate limit (the worst case), and with one (1,200 a minute) that the
  // flood uses up within about a second, after which it is answered 429.
  for (const [label, server] of [
    ["no rate limit", servers.toolwire],
    ["rate limit", servers.limited],
  ]) {
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
