// A call whose worker dies runs at most once more: when the second worker dies too, the session gets one error
// result naming the executor (docs/workers.md). Real redis-server, workers in their own processes killed with SIGKILL.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentSession } from "../../src/core/dispatch/session.js";
import { createAgentSession } from "../../src/core/dispatch/session.js";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { ToolCallOutcome } from "../../src/core/types.js";
import { type BullmqExecutor, createBullmqExecutor } from "../../src/executors/bullmq/create-bullmq-executor.js";
import { REDIS_RUNS, type RedisServer, startRedis } from "../support/redis.js";
import { builtScript } from "./helpers/build.js";
import { tempWorkspace } from "./helpers/cli.js";

if (!REDIS_RUNS) console.warn("skipping the stalled-worker test: /usr/bin/redis-server is not installed");

const ENTRY = pathToFileURL(builtScript("dist/executors/index.js")).href;
const CORE = pathToFileURL(builtScript("dist/index.js")).href;

/** A worker whose one tool marks its run with the worker's pid and then never ends. */
const WORKER = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineTool } from ${JSON.stringify(CORE)};
import { startBullmqWorker } from ${JSON.stringify(ENTRY)};
const hang = defineTool({ name: "hang", description: "Never ends", inputSchema: { type: "object" }, execute: () => {
  writeFileSync(join(process.env.MARKERS, "run-" + process.pid), "");
  return new Promise(() => {});
} });
// 4 s: a live worker starved of CPU while the whole suite runs must still renew its lock in time (at 2 s, a CI run once
// saw a live worker's call counted stalled, so the call ended before the second worker could run it).
await startBullmqWorker({ id: "lab", connection: process.env.REDIS_URL, tools: [hang], lockDurationMs: 4000 });
console.log("worker ready");
`;

describe.runIf(REDIS_RUNS)("a call whose workers die", { timeout: 180_000 }, () => {
  let redis: RedisServer;
  let markers: { path: string; remove(): Promise<void> };
  let executor: BullmqExecutor;
  let session: AgentSession;
  const workers: ChildProcess[] = [];

  const startWorker = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", WORKER], {
      env: { ...process.env, REDIS_URL: redis.url, MARKERS: markers.path },
      stdio: ["ignore", "pipe", "pipe"],
    });
    workers.push(child);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes("worker ready")) resolve();
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`the worker exited (${code}):\n${output}`)));
    });
    child.removeAllListeners("exit");
    return child;
  };

  /**
   * Waits until the worker `child` marked a run of the call. A stalled call is taken over within about two lock
   * durations and two checks (8 s here) on a quiet machine; a CI machine running the whole suite can take several
   * times that. A call that ended meanwhile makes the wait fail with how it ended.
   */
  const runOn = async (child: ChildProcess, outcome: Promise<ToolCallOutcome>) => {
    let ended: ToolCallOutcome | undefined;
    void outcome.then((settled) => {
      ended = settled;
    });
    await expect
      .poll(
        async () => {
          if (ended !== undefined) throw new Error(`the call ended first: ${JSON.stringify(ended.block.content)}`);
          return (await readdir(markers.path)).includes(`run-${child.pid}`);
        },
        { timeout: 45_000, interval: 50 },
      )
      .toBe(true);
  };

  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });

  beforeAll(async () => {
    redis = await startRedis();
    markers = await tempWorkspace({}, "toolwire-stalled-");
    // A whole suite on a busy machine can take more than the default 2 s to make the first connection.
    executor = createBullmqExecutor({ id: "lab", connection: redis.url, connectTimeoutMs: 20_000 });
    const hang = defineTool({
      name: "hang",
      description: "Never ends",
      inputSchema: { type: "object" },
      execute: () => "",
    });
    session = createAgentSession({
      registry: createToolRegistry({ custom: [hang], executors: [{ executor, tools: ["hang"] }] }),
      toolTimeoutMs: 80_000,
    });
  });

  afterAll(async () => {
    for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await executor?.close();
    await redis?.stop();
    await markers?.remove();
  });

  it("runs once more after the first dies, then ends with an error result naming the executor", async () => {
    const first = await startWorker();
    const outcome = session.dispatchDetailed({ id: "h1", name: "hang", input: {} });
    await runOn(first, outcome);
    const second = await startWorker();
    await kill(first);
    await runOn(second, outcome); // the second worker found the call stalled and ran it again
    await kill(second);
    await startWorker(); // a live worker of the queue finds it stalled twice
    const ended = await outcome;
    expect(ended.errorCode).toBe("execution-failed");
    expect(ended.block.content[0]).toMatchObject({
      text: expect.stringMatching(
        /the worker of executor lab running it stopped .* and so did the one that took it over/,
      ),
    });
    expect((await readdir(markers.path)).sort()).toEqual([`run-${first.pid}`, `run-${second.pid}`].sort());
  });
});
