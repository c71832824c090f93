// A durable run killed (SIGKILL) during a slow call, after a side effect, and resumed by a new process.
import { execFile, spawn } from "node:child_process";
import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_RUNS, type PostgresServer, startPostgres } from "../support/postgres.js";
import { builtScript } from "./helpers/build.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, "helpers/durable-run-child.mjs");
const dist = dirname(builtScript("dist/index.js"));
const journalModule = builtScript("dist/journal/index.js");
const work: string[] = [];
afterEach(async () => {
  for (const dir of work.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Resolves once `path` exists (polled), or rejects after `ms`. */
async function appears(path: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (
      await access(path).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} did not appear within ${ms} ms`);
}

/** Starts the run, waits until both slow calls are running, and kills the process. */
async function startAndKill(dir: string, kind: string, env: NodeJS.ProcessEnv): Promise<void> {
  const started = spawn(process.execPath, [child, dist, "start", dir, journalModule, kind], { env, stdio: "ignore" });
  try {
    await appears(join(dir, "unsafe_wait.started"), 30_000);
    await appears(join(dir, "safe_wait.started"), 30_000);
  } finally {
    started.kill("SIGKILL");
  }
  await new Promise((resolve) =>
    started.exitCode === null && started.signalCode === null ? started.once("exit", resolve) : resolve(undefined),
  );
}

async function resume(dir: string, kind: string, env: NodeJS.ProcessEnv) {
  const { stdout } = await run(process.execPath, [child, dist, "resume", dir, journalModule, kind], {
    env,
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim()) as { results: string[][]; reason: string };
}

/** Across every process: `send` ran once, `unsafe_wait` once (never again), `safe_wait` twice (run again on resume). */
async function expectRunCounts(dir: string): Promise<void> {
  const runs = (await readFile(join(dir, "runs.log"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => line.split(" ")[1]);
  expect(runs.filter((tool) => tool === "send")).toHaveLength(1);
  expect(runs.filter((tool) => tool === "unsafe_wait")).toHaveLength(1);
  expect(runs.filter((tool) => tool === "safe_wait")).toHaveLength(2);
}

describe("a durable run on the file journal", () => {
  it("killed during a slow call resumes in a new process: the side effect happened once, the interrupted calls end as their tools allow, the model is not asked again", {
    timeout: 90_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-durable-"));
    work.push(dir);
    const env = { PATH: process.env.PATH ?? "" };
    await startAndKill(dir, "file", env);
    const resumed = await resume(dir, "file", env);
    // Its model knows only the last answer: asking it for an earlier turn would have failed the run.
    expect(resumed.reason).toBe("completed");
    expect(resumed.results).toEqual([
      ["u1", "outcome-unknown"],
      ["w1", "ok"],
    ]);
    await expectRunCounts(dir);
    expect(await readFile(join(dir, "safe_wait.started"), "utf8")).toBe("run-1:w1");
  });
});

if (!POSTGRES_RUNS) console.warn("skipping the durable runs on PostgreSQL: initdb and postgres are not installed");

describe.skipIf(!POSTGRES_RUNS)("a durable run on the PostgreSQL journal", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it("killed during a slow call, is resumed by one of two processes racing for it; nothing runs twice", {
    timeout: 90_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-durable-pg-"));
    work.push(dir);
    const env = { PATH: process.env.PATH ?? "", JOURNAL_URL: server.connectionString };
    await startAndKill(dir, "postgres", env);
    const slow = { ...env, WAIT_MS: "3000" };
    const both = await Promise.all([resume(dir, "postgres", slow), resume(dir, "postgres", slow)]);
    // One continues the run. The other meets its lease (held_elsewhere), or, on a machine so loaded that it starts
    // after the first finished, finds the run completed: either way it runs nothing.
    const [winner, other] = both[0]?.results.length === 0 ? [both[1], both[0]] : [both[0], both[1]];
    expect(other?.results).toEqual([]);
    expect(["held_elsewhere", "completed"]).toContain(other?.reason);
    expect(winner?.reason).toBe("completed");
    expect(winner?.results).toEqual([
      ["u1", "outcome-unknown"],
      ["w1", "ok"],
    ]);
    await expectRunCounts(dir);
  });
});
