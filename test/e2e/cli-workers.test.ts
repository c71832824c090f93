// Remote executors end to end (docs/workers.md): a scripted agent whose bash and plugin tool run on two `toolwire worker`
// processes over a real redis-server; the worker running the slow call is killed with SIGKILL mid-call, and the
// agent still gets exactly one result per call.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDIS_RUNS, type RedisServer, startRedis } from "../support/redis.js";
import { CLI, cliEnv, runCli, tempWorkspace, writeFiles } from "./helpers/cli.js";

if (!REDIS_RUNS) console.warn("skipping the workers end-to-end test: /usr/bin/redis-server is not installed");

/** A plugin tool that marks each run (with its worker's pid) in $MARKERS, then works for a while. */
const PLUGIN = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default { id: "slowplug", tools: (ctx) => [
  ctx.defineTool({
    name: "slow_report",
    description: "Writes a report, slowly.",
    inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    execute: async ({ title }) => {
      writeFileSync(join(process.env.MARKERS, "run-" + process.pid + "-" + Date.now()), String(process.pid));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return "report " + title + " written by pid " + process.pid;
    },
  }),
] };
`;

const config = (redis: string) =>
  JSON.stringify({
    plugins: [{ module: "./plugin.mjs" }],
    executors: [
      { id: "fleet", kind: "bullmq", connection: redis, tools: ["bash", "plugin:slowplug"], lockDurationMs: 2500 },
    ],
  });

const SCRIPT = JSON.stringify({
  turns: [
    {
      toolCalls: [
        { id: "c1", name: "bash", input: { command: "basename $(pwd)" } },
        { id: "c2", name: "slow_report", input: { title: "weekly" } },
      ],
    },
    {
      text: "done",
      expect: {
        toolResults: [
          { id: "c1", isError: false, contains: "machine-" },
          { id: "c2", isError: false, contains: "report weekly written by pid" },
        ],
      },
    },
  ],
});

describe.runIf(REDIS_RUNS)("toolwire worker", { timeout: 40_000 }, () => {
  let redis: RedisServer;
  let root: { path: string; remove(): Promise<void> };
  const workers: ChildProcess[] = [];

  /** Starts `toolwire worker --executor fleet` in its own folder (its own workspace, as on another machine). */
  const startWorker = async (name: string): Promise<ChildProcess> => {
    const folder = join(root.path, name);
    await writeFiles(folder, { "toolwire.config.json": config(redis.url), "plugin.mjs": PLUGIN });
    const child = spawn(process.execPath, [CLI, "worker", "--executor", "fleet", "--json"], {
      cwd: folder,
      env: cliEnv({ MARKERS: join(root.path, "markers") }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    workers.push(child);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker ${name} did not start:\n${output}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes('"worker_ready"')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`worker ${name} exited (${code}):\n${output}`)));
    });
    child.removeAllListeners("exit");
    return child;
  };

  beforeAll(async () => {
    redis = await startRedis();
    root = await tempWorkspace({ "markers/.keep": "" }, "toolwire-workers-");
    await writeFiles(join(root.path, "session"), {
      "toolwire.config.json": config(redis.url),
      "plugin.mjs": PLUGIN,
      "script.json": SCRIPT,
    });
    await Promise.all([startWorker("machine-a"), startWorker("machine-b")]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(
      workers.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
            child.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill("SIGTERM");
          }),
      ),
    );
    await redis?.stop();
    await root?.remove();
  });

  it("toolwire plan shows which tools run where", async () => {
    const plan = await runCli(["plan", "--json"], { cwd: join(root.path, "session") });
    expect(plan.code, plan.stderr).toBe(0);
    const parsed = JSON.parse(plan.stdout) as {
      visible: { name: string; runsOn?: string }[];
      executors: { id: string; where: string; tools: string[] }[];
    };
    expect(parsed.visible.find((tool) => tool.name === "bash")?.runsOn).toBe("fleet");
    expect(parsed.visible.find((tool) => tool.name === "read")?.runsOn).toBeUndefined();
    expect(parsed.executors).toEqual([
      { id: "fleet", where: `bullmq ${redis.url} queue toolwire-fleet`, tools: ["bash", "slow_report"] },
    ]);
    const text = await runCli(["plan"], { cwd: join(root.path, "session") });
    expect(text.stdout).toMatch(/bash\s+core\s+external, guarded\s+fleet/);
    expect(text.stdout).toMatch(/read\s+core\s+none\s+here/);
    const explained = await runCli(["explain", "bash", "--json"], { cwd: join(root.path, "session") });
    expect(JSON.parse(explained.stdout)).toMatchObject({
      runsOn: "fleet",
      explanation: expect.stringContaining("runs on remote executor fleet"),
    });
  });

  it("toolwire worker refuses an executor the config does not have, naming the ones it has", async () => {
    const run = await runCli(["worker", "--executor", "fleat"], { cwd: join(root.path, "session"), timeoutMs: 20_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The config has no executor "fleat"; its executors: fleet.');
  });

  it("runs bash and a plugin tool on the workers, and still gives one result per call when a worker is killed mid-call", async () => {
    const markers = join(root.path, "markers");
    const running = runCli(["run", "--json", "--model", "scripted:script.json", "write the weekly report"], {
      cwd: join(root.path, "session"),
      timeoutMs: 60_000,
    });
    // The first run of the slow call: kill the worker that took it (a busy machine took over 15 s to get there once).
    let victim: number | undefined;
    const deadline = Date.now() + 40_000;
    while (victim === undefined && Date.now() < deadline) {
      const runs = (await readdir(markers)).filter((name) => name.startsWith("run-"));
      if (runs.length > 0) victim = Number(await readFile(join(markers, runs[0] as string), "utf8"));
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const child = workers.find((worker) => worker.pid === victim);
    expect(child, "a worker started the slow call").toBeDefined();
    child?.kill("SIGKILL");
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const results = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { type: string; call?: { id: string }; result?: unknown })
      .filter((event) => event.type === "tool_result");
    expect(results.map((event) => event.call?.id).sort()).toEqual(["c1", "c2"]);
    const report = JSON.stringify(results.find((event) => event.call?.id === "c2")?.result);
    expect(report).toMatch(/report weekly written by pid \d+/);
    expect(report).not.toContain(`pid ${victim}`); // finished by the other worker
    // Run once on the killed worker, once more on the other: never a third time.
    expect((await readdir(markers)).filter((name) => name.startsWith("run-"))).toHaveLength(2);
  }, 120_000);
});
