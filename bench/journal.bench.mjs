// Benchmark: what journaling costs a durable run (docs/durable-runs.md). The file journal's append of one entry
// (one write, one fsync) and PostgreSQL's (one transaction, fsync and synchronous commit on, as shipped), and a no-op
// tool call's journaling: its call-started and call-ended entries, two appends, 100 calls one after another.
// And a whole run: one model turn of 100 no-op calls (dispatched together) and a last answer, through runAgent,
// without a journal and with each. Each pass times a batch; the figure is the median pass with the lowest and highest.
// Run: npm run bench:journal   (--passes 7 --batch 100 --folder DIR --postgres URL)
// Without --postgres it starts Debian's PostgreSQL in a temp folder (as `nobody` when run as root), or skips it.
// Target (issue 31): a tool call's journaling under 1 ms with fsync on the file journal, or the reason why not.
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { createAgentSession, createScriptedModel, createToolRegistry, defineTool, runAgent } from "../dist/index.js";
import { createFileJournal, createPostgresJournal } from "../dist/journal/index.js";
import { flag } from "./lib/args.js";
import { figureOf } from "./lib/figures.js";

const PASSES = Number(flag("--passes") ?? 7);
const BATCH = Number(flag("--batch") ?? 100);
const FOLDER = flag("--folder") ?? "/tmp";

const entry = (index) => ({
  kind: "call-started",
  turn: 1,
  toolCallId: `call-${index}`,
  toolName: "noop",
  inputDigest: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
});
const ended = (index) => ({
  kind: "call-ended",
  turn: 1,
  toolCallId: `call-${index}`,
  result: { type: "tool_result", tool_use_id: `call-${index}`, content: [{ type: "text", text: "ok" }] },
});

/** Milliseconds per unit of `work(index)` over BATCH units, pass by pass (the first pass warms up). */
async function perUnitMs(work) {
  const passes = [];
  let index = 0;
  for (let pass = 0; pass < PASSES + 1; pass++) {
    const start = process.hrtime.bigint();
    for (let unit = 0; unit < BATCH; unit++) await work(index++);
    const ms = Number(process.hrtime.bigint() - start) / 1e6 / BATCH;
    if (pass > 0) passes.push(ms);
  }
  return figureOf(passes);
}

const show = (figure) => `${figure.median.toFixed(3)} ms (${figure.min.toFixed(3)}–${figure.max.toFixed(3)})`;

async function measure(name, journal) {
  const run = `bench-${process.pid}`;
  const one = await perUnitMs((index) => journal.append(`${run}-a`, [entry(index)]));
  const call = await perUnitMs(async (index) => {
    await journal.append(`${run}-b`, [entry(index)]);
    await journal.append(`${run}-b`, [ended(index)]);
  });
  console.log(`${name}: one append of one entry ${show(one)}`);
  console.log(`${name}: a no-op tool call's journaling (2 appends) ${show(call)}`);
  // As runAgent appends: the run taken first (the file journal keeps a held run's file open).
  const lease = await journal.acquire(`${run}-c`);
  const held = await perUnitMs(async (index) => {
    await journal.append(`${run}-c`, [entry(index)]);
    await journal.append(`${run}-c`, [ended(index)]);
  });
  await lease?.release();
  console.log(`${name}: a no-op tool call's journaling (2 appends), run held ${show(held)}`);
}

const noop = defineTool({
  name: "noop",
  description: "Does nothing",
  inputSchema: { type: "object" },
  execute: () => "ok",
});
const sessions = {
  parallel: createAgentSession({ registry: createToolRegistry({ custom: [noop] }) }),
  sequential: createAgentSession({ registry: createToolRegistry({ custom: [noop] }), toolExecution: "sequential" }),
};
const CALLS = 100;
let runs = 0;

/** One run of 100 no-op calls (run together, or one after another), journaled when given; its milliseconds. */
async function oneRun(journal, order) {
  const session = sessions[order];
  const calls = Array.from({ length: CALLS }, (_, index) => ({ id: `c${index}`, name: "noop", input: {} }));
  const model = createScriptedModel([{ toolCalls: calls }, { text: "done" }]);
  const options = journal === undefined ? {} : { journal, runId: `bench-run-${process.pid}-${runs++}` };
  const start = process.hrtime.bigint();
  for await (const event of runAgent({ session, model, prompt: "go", ...options })) {
    if (event.type === "done" && event.reason !== "completed") throw new Error(`the run ended ${event.reason}`);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Runs of 100 no-op calls, dispatched together and one after another: the median run with the lowest and highest,
 * the first run left out (warm-up).
 */
async function runs100(name, journal) {
  for (const order of ["parallel", "sequential"]) {
    const times = [];
    for (let pass = 0; pass < PASSES + 1; pass++) {
      const ms = await oneRun(journal, order);
      if (pass > 0) times.push(ms);
    }
    const figure = figureOf(times);
    console.log(
      `${name}: a run of ${CALLS} no-op calls (${order}) ${show(figure)}, ${(figure.median / CALLS).toFixed(3)} ms a call`,
    );
  }
}

/** The floor under the file journal: one write and one fsync of an entry's line to an open file, nothing else. */
async function bareFsync(folder) {
  const handle = await open(join(folder, "bare.jsonl"), "a");
  const line = `${JSON.stringify(entry(0))}\n`;
  const figure = await perUnitMs(async () => {
    await handle.write(line);
    await handle.sync();
  });
  await handle.close();
  console.log(`bare write + fsync (no journal): ${show(figure)}`);
}

const folder = mkdtempSync(join(FOLDER, "toolwire-journal-bench-"));
try {
  const fsType = execFileSync("stat", ["-f", "-c", "%T", folder], { encoding: "utf8" }).trim();
  console.log(`Node ${process.version}; ${PASSES} passes of ${BATCH}; file journal in ${FOLDER} (${fsType})`);
  await bareFsync(folder);
  await measure("file", createFileJournal(folder));
  await runs100("no journal", undefined);
  await runs100("file journal", createFileJournal(folder));
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const given = flag("--postgres");
const server = given === undefined ? await startPostgres() : undefined;
try {
  const url = given ?? server?.url;
  if (url === undefined) console.log("postgres: skipped (no --postgres URL, and initdb/postgres are not installed)");
  else {
    const journal = createPostgresJournal({ connectionString: url });
    await measure("postgres", journal);
    await runs100("postgres journal", journal);
    await journal.close();
  }
} finally {
  await server?.stop();
}

/** Debian's PostgreSQL on a free loopback port, fsync on; undefined when it is not installed. */
async function startPostgres() {
  const bins = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort().reverse() : [];
  const bin = bins.map((version) => `/usr/lib/postgresql/${version}/bin`).find((path) => existsSync(`${path}/initdb`));
  if (bin === undefined) return undefined;
  const root = mkdtempSync("/tmp/toolwire-pg-bench-");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(root, 65_534, 65_534);
  const command = (binary, args) =>
    asRoot
      ? ["setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", `${bin}/${binary}`, ...args]]
      : [`${bin}/${binary}`, args];
  const data = join(root, "data");
  execFileSync(...command("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "--no-instructions"]), {
    cwd: root,
    stdio: "ignore",
  });
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const [binary, args] = command("postgres", ["-D", data, "-k", root, "-h", "127.0.0.1", "-p", String(port)]);
  const child = spawn(binary, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise((resolve, reject) => {
    let output = "";
    child.stderr.on("data", (chunk) => {
      output += chunk;
      if (output.includes("ready to accept connections")) resolve();
    });
    child.once("exit", () => reject(new Error(`postgres exited:\n${output}`)));
  });
  child.removeAllListeners("exit");
  child.stderr.resume();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => {
          rmSync(root, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGINT");
      }),
  };
}
