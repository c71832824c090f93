// The BullMQ executor and worker against a real redis-server on loopback: results, progress, cancellation, Redis away.
import { createServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REDIS_RUNS, type RedisServer, startRedis } from "../../../test/support/redis.js";
import { createAgentSession } from "../../core/dispatch/session.js";
import { defineTool } from "../../core/register/define-tool.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { AgentTool, ToolCallPhaseEvent, ToolLogEvent, ToolResult } from "../../core/types.js";
import { type BullmqExecutor, createBullmqExecutor } from "./create-bullmq-executor.js";
import { type BullmqWorker, startBullmqWorker } from "./start-bullmq-worker.js";

if (!REDIS_RUNS) console.warn("skipping the BullMQ executor tests: /usr/bin/redis-server is not installed");

let runs = 0;
let sawAbort = false;
const tools: AgentTool[] = [
  defineTool({
    name: "shape",
    description: "Returns a result with several blocks and details",
    inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    execute: async (input: { word: string }) => {
      runs++;
      return {
        content: [
          { type: "text", text: `said ${input.word}` },
          { type: "image", data: "aGk=", mimeType: "image/png" },
        ],
        details: { length: input.word.length },
      };
    },
  }),
  defineTool({
    name: "steps",
    description: "Reports two steps of progress",
    inputSchema: { type: "object" },
    execute: async (_input, context) => {
      context.onUpdate({ content: [{ type: "text", text: "step 1" }] });
      context.log?.("info", { step: 1 }, "steps");
      await new Promise((resolve) => setTimeout(resolve, 50));
      context.onUpdate({ content: [{ type: "text", text: "step 2" }] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return "done";
    },
  }),
  defineTool({
    name: "key",
    description: "Returns the idempotency key its call got",
    inputSchema: { type: "object" },
    execute: (_input, context) => `key ${context.idempotencyKey ?? "none"}`,
  }),
  defineTool({
    name: "slow",
    description: "Waits until aborted",
    inputSchema: { type: "object" },
    execute: (_input, context) =>
      new Promise((_resolve, reject) => {
        context.signal.addEventListener("abort", () => {
          sawAbort = true;
          reject(new Error("stopped"));
        });
      }),
  }),
];

describe.runIf(REDIS_RUNS)("BullMQ executor", { timeout: 90_000 }, () => {
  let redis: RedisServer;
  let worker: BullmqWorker;
  const executors: BullmqExecutor[] = [];
  /**
   * An executor whose link to Redis is up. On a busy machine a new connection was seen stalling in `connect` for
   * over 10 s (the call then ends "cannot reach Redis" and the next call opens a new link), so the link is made by
   * one call of its own, tried up to four times, before the test's calls.
   */
  const executor = async (options: { connectTimeoutMs?: number } = {}) => {
    const made = createBullmqExecutor({ id: "lab", connection: redis.url, connectTimeoutMs: 10_000, ...options });
    executors.push(made);
    for (let attempt = 1; ; attempt++) {
      const toolCallId = `connect-${attempt}-${Math.random()}`;
      const context = { toolCallId, signal: new AbortController().signal, onUpdate: () => {} };
      try {
        await made.execute({ toolName: "shape", toolCallId, input: { word: "up" } }, context);
        return made;
      } catch (error) {
        if (attempt === 4) throw error;
      }
    }
  };
  const remoteSession = (made: BullmqExecutor, toolTimeoutMs = 5_000) =>
    createAgentSession({
      registry: createToolRegistry({ custom: tools, executors: [{ executor: made, tools: ["*"] }] }),
      toolTimeoutMs,
    });

  beforeAll(async () => {
    redis = await startRedis();
    worker = await startBullmqWorker({ id: "lab", connection: redis.url, tools, lockDurationMs: 2_000 });
    // One call first, with time to spare, so a busy machine's first connection and script loading are not
    // what the first test measures.
    const warm = createBullmqExecutor({ id: "lab", connection: redis.url, connectTimeoutMs: 30_000 });
    await remoteSession(warm, 30_000).dispatch({ id: "warm-1", name: "shape", input: { word: "warm" } });
    await warm.close();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(executors.splice(0).map((made) => made.close()));
  });
  afterAll(async () => {
    await worker?.close({ force: true });
    await redis?.stop();
  });

  it("returns the same result, details included, as the tool run in this process", async () => {
    const local = createAgentSession({ registry: createToolRegistry({ custom: tools }) });
    const remote = remoteSession(await executor());
    const call = { id: "same-1", name: "shape", input: { word: "hello" } };
    const here = await local.dispatchDetailed(call);
    const there = await remote.dispatchDetailed(call);
    expect(there.result).toEqual(here.result);
    expect(there.block).toEqual(here.block);
  });

  it("sends the worker's progress to tool_execution_update and its logs to tool_log, and reports the queue time as queued_remote", async () => {
    const session = remoteSession(await executor());
    const updates: ToolResult[] = [];
    const phases: ToolCallPhaseEvent[] = [];
    const logs: ToolLogEvent[] = [];
    session.on("tool_log", (event) => logs.push(event));
    session.on("tool_execution_update", (event) => updates.push(event.partial));
    session.on("tool_call_phase", (event) => phases.push(event));
    const block = await session.dispatch({ id: "steps-1", name: "steps", input: {} });
    expect(block.content).toEqual([{ type: "text", text: "done" }]);
    expect(updates.map((partial) => partial.content[0])).toEqual([
      { type: "text", text: "step 1" },
      { type: "text", text: "step 2" },
    ]);
    expect(logs).toEqual([
      { toolCallId: "steps-1", toolName: "steps", level: "info", data: { step: 1 }, logger: "steps" },
    ]);
    const queued = phases.find((phase) => phase.phase === "queued_remote");
    expect(queued?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("stops the work on the worker when the call times out, and ends the call at once", async () => {
    sawAbort = false;
    const session = remoteSession(await executor(), 400);
    const started = performance.now();
    const outcome = await session.dispatchDetailed({ id: "slow-1", name: "slow", input: {} });
    expect(outcome.errorCode, JSON.stringify(outcome.block.content)).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1_500);
    await expect.poll(() => sawAbort, { timeout: 2_000 }).toBe(true);
    await expect.poll(() => worker.running, { timeout: 2_000 }).toBe(0);
  });

  it("stops the work on the worker when the caller aborts", async () => {
    sawAbort = false;
    const session = remoteSession(await executor());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const outcome = await session.dispatchDetailed(
      { id: "slow-2", name: "slow", input: {} },
      { signal: controller.signal },
    );
    expect(outcome.errorCode).toBe("aborted");
    await expect.poll(() => sawAbort, { timeout: 2_000 }).toBe(true);
  });

  it("runs a call enqueued twice once, and gives both the one reply", async () => {
    const made = await executor();
    const context = { toolCallId: "twice-1", signal: new AbortController().signal, onUpdate: () => {} };
    const before = runs;
    const call = { toolName: "shape", toolCallId: "twice-1", input: { word: "once" } };
    const [first, second] = await Promise.all([made.execute(call, context), made.execute(call, context)]);
    expect(second).toEqual(first);
    const third = await made.execute(call, context); // after it finished: the kept reply
    expect(third).toEqual(first);
    expect(runs - before).toBe(1);
  });

  it("gives the worker's tool the call's idempotency key, so a durable run's tool can dedupe on a worker too", async () => {
    const remote = remoteSession(await executor());
    const [keyed] = await remote.dispatchAll([{ id: "k1", name: "key", input: {} }], { runId: "order-42" });
    expect(keyed?.content).toEqual([{ type: "text", text: "key order-42:k1" }]);
    const plain = await remote.dispatch({ id: "k2", name: "key", input: {} });
    expect(plain.content).toEqual([{ type: "text", text: "key none" }]);
  });

  it("brings a result of several megabytes back whole", async () => {
    const big = "x".repeat(3_000_000);
    const huge = defineTool({
      name: "huge",
      description: "A big result",
      inputSchema: { type: "object" },
      execute: () => big,
    });
    const bigWorker = await startBullmqWorker({ id: "big", connection: redis.url, tools: [huge] });
    try {
      const made = createBullmqExecutor({ id: "big", connection: redis.url, connectTimeoutMs: 30_000 });
      executors.push(made);
      const context = { toolCallId: "huge-1", signal: new AbortController().signal, onUpdate: () => {} };
      const result = await made.execute({ toolName: "huge", toolCallId: "huge-1", input: {} }, context);
      expect(result.content).toEqual([{ type: "text", text: big }]);
    } finally {
      await bigWorker.close({ force: true });
    }
  });

  it("removes a call that timed out before any worker took it, so it never runs", async () => {
    let ran = 0;
    const counted = defineTool({
      name: "counted",
      description: "Counts its runs",
      inputSchema: { type: "object" },
      execute: () => {
        ran++;
        return "ran";
      },
    });
    const made = createBullmqExecutor({ id: "idle", connection: redis.url });
    executors.push(made);
    const session = createAgentSession({
      registry: createToolRegistry({ custom: [counted], executors: [{ executor: made, tools: ["counted"] }] }),
      toolTimeoutMs: 300,
    });
    const timedOut = await session.dispatchDetailed({ id: "idle-1", name: "counted", input: {} });
    expect(timedOut.errorCode, JSON.stringify(timedOut.block.content)).toBe("timeout");
    const late = await startBullmqWorker({ id: "idle", connection: redis.url, tools: [counted] });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(ran).toBe(0);
    } finally {
      await late.close({ force: true });
    }
  });

  it("answers tool-not-found for a tool the worker does not have", async () => {
    const extra = defineTool({
      name: "elsewhere",
      description: "Not on the worker",
      inputSchema: { type: "object" },
      execute: () => "x",
    });
    const made = await executor();
    const session = createAgentSession({
      registry: createToolRegistry({ custom: [extra], executors: [{ executor: made, tools: ["elsewhere"] }] }),
    });
    const outcome = await session.dispatchDetailed({ id: "nf-1", name: "elsewhere", input: {} });
    expect(outcome.errorCode).toBe("tool-not-found");
    expect(outcome.block.content[0]).toMatchObject({ text: expect.stringContaining("executor lab") });
  });
});

describe.runIf(REDIS_RUNS)("BullMQ executor, Redis away", () => {
  it("ends a waiting call at once when the connection to Redis drops, naming the executor and the address", async () => {
    const redis = await startRedis();
    const worker = await startBullmqWorker({ id: "lab", connection: redis.url, tools });
    const made = createBullmqExecutor({ id: "lab", connection: redis.url });
    const session = createAgentSession({
      registry: createToolRegistry({ custom: tools, executors: [{ executor: made, tools: ["*"] }] }),
      toolTimeoutMs: 10_000,
    });
    try {
      const waiting = session.dispatchDetailed({ id: "drop-1", name: "slow", input: {} });
      // Generous: a loaded CI run once took over 3 s to hand the job to the worker; the drop below is what is timed.
      await expect.poll(() => worker.running, { timeout: 8_000 }).toBe(1);
      const dropped = performance.now();
      await redis.stop();
      const outcome = await waiting;
      expect(performance.now() - dropped).toBeLessThan(2_000);
      expect(outcome.errorCode).toBe("execution-failed");
      expect(outcome.block.content[0]).toMatchObject({
        text: expect.stringContaining(`executor lab lost its connection to Redis at ${redis.url}`),
      });
    } finally {
      await made.close();
      await worker.close({ force: true });
      await redis.stop();
    }
  });

  it("ends calls with an error naming the executor and the address within the timeout, and works again once Redis is back", async () => {
    let redis = await startRedis();
    const { port } = redis;
    const worker = await startBullmqWorker({ id: "lab", connection: redis.url, tools });
    const made = createBullmqExecutor({ id: "lab", connection: redis.url, connectTimeoutMs: 500 });
    const session = createAgentSession({
      registry: createToolRegistry({ custom: tools, executors: [{ executor: made, tools: ["*"] }] }),
      toolTimeoutMs: 3_000,
    });
    try {
      // Up: a call runs (tried again while a busy machine takes more than 500 ms for the first connection).
      await expect
        .poll(
          async () =>
            (await session.dispatchDetailed({ id: `up-${Math.random()}`, name: "shape", input: { word: "a" } }))
              .errorCode,
          { timeout: 8_000, interval: 200 },
        )
        .toBeUndefined();
      await redis.stop();
      const started = performance.now();
      const down = await session.dispatchDetailed({ id: "down-1", name: "shape", input: { word: "b" } });
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(down.errorCode).toBe("execution-failed");
      expect(down.block.content[0]).toMatchObject({
        text: expect.stringContaining(`executor lab cannot reach Redis at redis://127.0.0.1:${port}`),
      });
      redis = await startRedis({ port });
      await expect
        .poll(
          async () =>
            (await session.dispatchDetailed({ id: `back-${Math.random()}`, name: "shape", input: { word: "c" } }))
              .errorCode,
          {
            timeout: 8_000,
            interval: 200,
          },
        )
        .toBeUndefined();
    } finally {
      await made.close();
      await worker.close({ force: true });
      await redis.stop();
    }
  }, 25_000);
});

describe("BullMQ executor, a Redis address that never answers", () => {
  it("ends the call after connectTimeoutMs naming the connections' states", async () => {
    // Accepts connections and says nothing: each connection stays short of ready, with no error to report.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const made = createBullmqExecutor({ id: "lab", connection: `redis://127.0.0.1:${port}`, connectTimeoutMs: 500 });
    try {
      const context = { toolCallId: "silent-1", signal: new AbortController().signal, onUpdate: () => {} };
      const failed = made.execute({ toolName: "shape", toolCallId: "silent-1", input: { word: "a" } }, context);
      await expect(failed).rejects.toMatchObject({
        code: "execution-failed",
        message: expect.stringMatching(/cannot reach Redis at .*\(no answer within 500 ms; connections \w+(, \w+)*\)/),
      });
    } finally {
      await made.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 20_000);
});
