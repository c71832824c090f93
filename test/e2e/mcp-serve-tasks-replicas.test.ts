// Two `toolwire serve --http` replicas behind nginx (round-robin, no stickiness) share their tasks through one Redis
// (serve.tasks.store): a task run by one is polled, cancelled and answered through the other, for its principal only,
// and ends failed when its replica stops; and a bad store address in the config is refused.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NginxBalancer, nginxAvailable, startNginxBalancer } from "../support/nginx.js";
import { type RedisServer, redisServerAvailable, startRedis } from "../support/redis.js";
import { CLI, cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";
import { modernRpc } from "./helpers/modern-rpc.js";
import { serveUrlOf } from "./helpers/serve-url.js";

const MUST_RUN = process.env.CI === "true";
const RUNS = MUST_RUN || (nginxAvailable() !== undefined && redisServerAvailable() !== undefined);
if (!RUNS) console.warn("skipping the tasks-across-replicas test: nginx or redis-server is not installed");

const ALICE = "alice-replicas-token-0123456789";
const BOB = "bob-replicas-token-0123456789";
const TASKS = "io.modelcontextprotocol/tasks";

// Each tool writes started-<label> (the pid running it) in the project; hang writes aborted-<label> once aborted.
const PLUGIN = `import { appendFileSync, writeFileSync } from "node:fs";
const started = (label) => writeFileSync("started-" + label, String(process.pid));
export default {
  id: "replica",
  tools: (ctx) => [
    ctx.defineTool({
      name: "slow",
      description: "Takes three seconds.",
      inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
      execute: async ({ label }, context) => {
        started(label);
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 3000);
          context.signal?.addEventListener("abort", () => { clearTimeout(timer); reject(new Error("aborted")); });
        });
        return "slow " + label + " by " + process.pid;
      },
    }),
    ctx.defineTool({
      name: "hang",
      description: "Runs until aborted.",
      inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
      execute: async ({ label }, context) => {
        started(label);
        await new Promise((resolve) => context.signal?.addEventListener("abort", resolve));
        writeFileSync("aborted-" + label, String(process.pid));
        return "stopped";
      },
    }),
    ctx.defineTool({
      name: "deploy",
      description: "Needs a person's approval.",
      inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
      execute: ({ env }) => {
        appendFileSync("deploys.log", env + "\\n");
        return "deployed " + env + " by " + process.pid;
      },
    }),
  ],
};
`;

interface Replica {
  readonly child: ChildProcess;
  readonly url: string;
}

let project: { path: string; remove(): Promise<void> };
let redis: RedisServer | undefined;
let balancer: NginxBalancer | undefined;
const replicas: Replica[] = [];

beforeAll(async () => {
  if (!RUNS) return;
  redis = await startRedis();
  project = await tempWorkspace({
    "plugins/replica.mjs": PLUGIN,
    "toolwire.config.json": JSON.stringify({
      builtins: { enabled: false },
      plugins: [{ module: "./plugins/replica.mjs" }],
      approvals: { require: ["deploy"], secretEnv: "REPLICAS_APPROVALS_SECRET" },
      serve: {
        auth: {
          tokens: [
            { token: "env:ALICE_TOKEN", principal: "alice" },
            { token: "env:BOB_TOKEN", principal: "bob" },
          ],
        },
        allowedHosts: ["127.0.0.1"],
        tasks: { afterMs: 500, pollIntervalMs: 100, store: "env:TASKS_REDIS" },
      },
    }),
  });
  replicas.push(...(await Promise.all([startReplica(), startReplica()])));
  balancer = await startNginxBalancer(replicas.map((replica) => Number(new URL(replica.url).port)));
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  for (const { child } of replicas) child.kill("SIGTERM");
  await Promise.all(
    replicas.map(({ child }) =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once("exit", resolve))
        : undefined,
    ),
  );
  await redis?.stop();
  await project?.remove();
});

async function startReplica(): Promise<Replica> {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
    cwd: project.path,
    env: cliEnv({
      ALICE_TOKEN: ALICE,
      BOB_TOKEN: BOB,
      TASKS_REDIS: redis?.url as string,
      REPLICAS_APPROVALS_SECRET: "replicas-approvals-secret-0123456789abcdef",
    }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await serveUrlOf(child);
  return { child, url };
}

/** One raw 2026-07-28 request declaring the tasks extension (and elicitation, for approvals). */
async function rpc(url: string, token: string, method: string, params: Record<string, unknown>) {
  const answer = await modernRpc(url, method, params, {
    token,
    capabilities: { elicitation: {}, extensions: { [TASKS]: {} } },
  });
  expect(answer.status).toBe(200);
  return answer;
}

const balanced = () => `${balancer?.url}/mcp`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The replica whose process id the tool wrote in started-<label>, and the other one. */
async function runnerOf(label: string): Promise<{ runner: Replica; other: Replica }> {
  const file = join(project.path, `started-${label}`);
  await expect.poll(() => existsSync(file), { timeout: 10_000 }).toBe(true);
  const pid = Number(readFileSync(file, "utf8"));
  const runner = replicas.find(({ child }) => child.pid === pid) as Replica;
  expect(runner).toBeDefined();
  return { runner, other: replicas.find((replica) => replica !== runner) as Replica };
}

/** Polls tasks/get at `url` until the task ends, at most 20 s. */
async function pollTask(url: string, taskId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const task = (await rpc(url, ALICE, "tasks/get", { taskId })).result ?? {};
    if (["completed", "failed", "cancelled"].includes(String(task.status)) || Date.now() > deadline) return task;
    await sleep(100);
  }
}

describe.skipIf(!RUNS)(
  "toolwire serve replicas sharing serve.tasks.store in Redis, behind nginx",
  { timeout: 60_000 },
  () => {
    it("a 3-second call becomes a task on one replica; tasks/get through the other and the balancer sees it end", async () => {
      const tasked = await rpc(balanced(), ALICE, "tools/call", { name: "slow", arguments: { label: "s1" } });
      expect(tasked.result).toMatchObject({ resultType: "task", status: "working" });
      const taskId = String(tasked.result?.taskId);
      const { runner, other } = await runnerOf("s1");
      expect((await rpc(other.url, ALICE, "tasks/get", { taskId })).result).toMatchObject({
        taskId,
        status: "working",
      });
      const done = await pollTask(other.url, taskId);
      expect(done).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: `slow s1 by ${runner.child.pid}` }] },
      });
      // Round-robin: both replicas answer the same.
      for (let index = 0; index < 2; index++) {
        expect((await rpc(balanced(), ALICE, "tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
      }
    });

    it("tasks/cancel sent to the replica that does not run the call aborts its executor; the task ends cancelled", async () => {
      const tasked = await rpc(balanced(), ALICE, "tools/call", { name: "hang", arguments: { label: "h1" } });
      const taskId = String(tasked.result?.taskId);
      const { runner, other } = await runnerOf("h1");
      expect((await rpc(other.url, ALICE, "tasks/cancel", { taskId })).result?.resultType).toBe("complete");
      const marker = join(project.path, "aborted-h1");
      await expect.poll(() => existsSync(marker), { timeout: 10_000 }).toBe(true);
      expect(readFileSync(marker, "utf8")).toBe(String(runner.child.pid));
      expect(await pollTask(other.url, taskId)).toMatchObject({ status: "cancelled" });
      expect((await rpc(runner.url, ALICE, "tasks/get", { taskId })).result?.status).toBe("cancelled");
    });

    it("an approval asked by one replica and answered with tasks/update on the other runs the call once", async () => {
      const [asker, answerer] = replicas as [Replica, Replica];
      const tasked = await rpc(asker.url, ALICE, "tools/call", { name: "deploy", arguments: { env: "prod" } });
      expect(tasked.result).toMatchObject({ resultType: "task", status: "input_required" });
      const taskId = String(tasked.result?.taskId);
      const waiting = await rpc(answerer.url, ALICE, "tasks/get", { taskId });
      expect(waiting.result?.status).toBe("input_required");
      const key = Object.keys(waiting.result?.inputRequests as object)[0] as string;
      const accept = { taskId, inputResponses: { [key]: { action: "accept" } } };
      expect((await rpc(answerer.url, ALICE, "tasks/update", accept)).result?.resultType).toBe("complete");
      const done = await pollTask(answerer.url, taskId);
      expect(done).toMatchObject({
        status: "completed",
        result: { content: [{ text: `deployed prod by ${asker.child.pid}` }] },
      });
      // The same answer again, through either replica, finds nothing open.
      await rpc(answerer.url, ALICE, "tasks/update", accept);
      await rpc(asker.url, ALICE, "tasks/update", accept);
      await sleep(300);
      expect(readFileSync(join(project.path, "deploys.log"), "utf8")).toBe("prod\n");
    });

    it("another principal finds the task on neither replica, as an unknown id, and cannot cancel it", async () => {
      const tasked = await rpc(balanced(), ALICE, "tools/call", { name: "hang", arguments: { label: "h2" } });
      const taskId = String(tasked.result?.taskId);
      await runnerOf("h2");
      for (const { url } of replicas) {
        const unknown = await rpc(url, BOB, "tasks/get", { taskId: "no-such-task" });
        expect(unknown.error).toMatchObject({ code: -32602 });
        for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
          expect((await rpc(url, BOB, method, { taskId, inputResponses: {} })).error).toEqual(unknown.error);
        }
      }
      await sleep(300);
      expect(existsSync(join(project.path, "aborted-h2"))).toBe(false);
      expect((await rpc(balanced(), ALICE, "tasks/get", { taskId })).result?.status).toBe("working");
      await rpc(balanced(), ALICE, "tasks/cancel", { taskId });
    });

    // Last: it stops a replica.
    it("a replica stopped with a task still running ends it failed, as the other replica then answers", async () => {
      const tasked = await rpc(balanced(), ALICE, "tools/call", { name: "hang", arguments: { label: "h3" } });
      const taskId = String(tasked.result?.taskId);
      const { runner, other } = await runnerOf("h3");
      runner.child.kill("SIGTERM");
      await new Promise((resolve) => runner.child.once("exit", resolve));
      expect(existsSync(join(project.path, "aborted-h3"))).toBe(true);
      expect(await pollTask(other.url, taskId)).toMatchObject({
        status: "failed",
        error: { message: "the server stopped before the task ended: call the tool again" },
      });
    });
  },
);

describe("serve.tasks.store in the config", { timeout: 60_000 }, () => {
  it("toolwire serve exits 3 for an env: store whose variable is unset or holds no Redis address, never showing it", async () => {
    const withStore = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ serve: { tasks: { store: "env:TOOLWIRE_TEST_TASKS" } } }),
    });
    try {
      const unset = await runCli(["serve", "--http", "0"], { cwd: withStore.path });
      expect(unset.code).toBe(3);
      expect(unset.stderr).toContain(
        "serve.tasks.store: it is env:TOOLWIRE_TEST_TASKS, and TOOLWIRE_TEST_TASKS is not set",
      );
      const wrong = await runCli(["serve", "--http", "0"], {
        cwd: withStore.path,
        env: cliEnv({ TOOLWIRE_TEST_TASKS: "https://user:hunter22@cache.internal" }),
      });
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toContain("serve.tasks.store: it is not a Redis address: it must start with redis://");
      expect(wrong.stderr).not.toContain("hunter22");
    } finally {
      await withStore.remove();
    }
  });
});
