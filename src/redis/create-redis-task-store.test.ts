// The Redis task store against a real redis-server on loopback: shared records, expiry, leases, control, Redis away;
// and two createServedTasks sharing it, as two replicas do.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/support/free-port.js";
import { REDIS_RUNS, type RedisServer, startRedis } from "../../test/support/redis.js";
import { CLOSED_TASK_MESSAGE, createServedTasks } from "../mcp/server/tasks/served-tasks.js";
import type { TaskRecord } from "../mcp/server/tasks/task-record.js";
import type { TaskControlMessage } from "../mcp/server/tasks/task-store.js";
import { createRedisTaskStore, LAPSED_TASK_MESSAGE, type RedisTaskStore } from "./create-redis-task-store.js";

if (!REDIS_RUNS) console.warn("skipping the Redis task store tests: /usr/bin/redis-server is not installed");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running = (taskId: string): TaskRecord => ({
  taskId,
  principal: "alice",
  toolName: "slow",
  status: "working",
  createdAt: 1,
  lastUpdatedAt: 1,
  pollIntervalMs: 1_000,
});

describe("createRedisTaskStore, without Redis", () => {
  it("refuses a connection that is not a Redis address, without showing its password, and bad numbers", () => {
    for (const connection of ["http://user:hunter22@example.com", "redis://:hunter22@host/x", "hunter22"]) {
      let thrown: unknown;
      try {
        createRedisTaskStore({ connection });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(/not a Redis address/);
      expect((thrown as Error).message).not.toContain("hunter22");
    }
    for (const bad of [{ leaseMs: 2 }, { timeoutMs: 0 }, { ttlMs: 1.5 }]) {
      expect(() => createRedisTaskStore({ connection: "redis://127.0.0.1:6379", ...bad })).toThrow(TypeError);
    }
  });
});

describe.runIf(REDIS_RUNS)("createRedisTaskStore", () => {
  let redis: RedisServer;
  let probe: Redis;
  const closing: { close(): Promise<void> }[] = [];
  const open = (options: { leaseMs?: number; ttlMs?: number; keyPrefix?: string } = {}) => {
    const store = createRedisTaskStore<TaskRecord>({ connection: redis.url, timeoutMs: 1_000, ...options });
    closing.push(store);
    return store;
  };
  const serve = (store: RedisTaskStore<TaskRecord>) => {
    const served = createServedTasks({ afterMs: 0, store });
    closing.push(served);
    return served;
  };

  beforeAll(async () => {
    redis = await startRedis();
    probe = new Redis(redis.port, "127.0.0.1");
  });
  afterAll(async () => {
    await Promise.all(closing.map((item) => item.close()));
    probe?.disconnect();
    await redis?.stop();
  });

  it("a record one store writes, another reads; an ended one expires at its expiresAt and never changes again", async () => {
    const [first, second] = [open(), open()];
    await first.create(running("shared"));
    expect(await second.get("shared")).toEqual(running("shared"));
    expect(await second.get("unknown")).toBeUndefined();
    const ended: TaskRecord = {
      ...running("shared"),
      status: "completed",
      result: { content: [] },
      expiresAt: Date.now() + 30_000,
    };
    await first.put(ended);
    expect(await second.get("shared")).toEqual(ended);
    const left = await probe.pttl("toolwire:task:shared");
    expect(left).toBeGreaterThan(20_000);
    expect(left).toBeLessThanOrEqual(30_000);
    // A late write (a cancel after the end, say) leaves the end as it was.
    await second.put({ ...running("shared"), status: "cancelled", expiresAt: Date.now() + 60_000 });
    await second.put(running("shared"));
    expect(await first.get("shared")).toEqual(ended);
    await first.put({ ...running("brief"), status: "completed", expiresAt: Date.now() + 100 });
    await sleep(250);
    expect(await second.get("brief")).toBeUndefined();
  });

  it("keeps the prefix it is given", async () => {
    await open({ keyPrefix: "app1:tasks:" }).create(running("prefixed"));
    expect(await probe.exists("app1:tasks:prefixed", "app1:tasks:prefixed:lease")).toBe(2);
    expect(await open().get("prefixed")).toBeUndefined();
  });

  it("a running task stays working while its process renews the lease, and fails once that process is gone", async () => {
    const runner = open({ leaseMs: 300, ttlMs: 60_000 });
    const other = open({ leaseMs: 300, ttlMs: 60_000 });
    await runner.create({ ...running("leased"), status: "input_required", inputRequests: { a: {} } });
    await sleep(900);
    expect(await other.get("leased")).toMatchObject({ status: "input_required" });
    // Unrenewed, the running task would go ttlMs after its lease, even if nobody asked about it.
    const kept = await probe.pttl("toolwire:task:leased");
    expect(kept).toBeGreaterThan(60_000);
    expect(kept).toBeLessThanOrEqual(60_300);
    await runner.close();
    await sleep(700);
    const failed = await other.get("leased");
    expect(failed).toMatchObject({
      taskId: "leased",
      principal: "alice",
      status: "failed",
      statusMessage: LAPSED_TASK_MESSAGE,
      error: { code: -32603, message: LAPSED_TASK_MESSAGE },
    });
    expect(failed).not.toHaveProperty("inputRequests");
    expect(Number(failed?.expiresAt) - Date.now()).toBeGreaterThan(50_000);
    expect(await probe.pttl("toolwire:task:leased")).toBeGreaterThan(50_000);
    // The runner, back late, cannot turn the failed task into another end.
    await open().put({ ...running("leased"), status: "completed", expiresAt: Date.now() + 60_000 });
    expect(await other.get("leased")).toMatchObject({ status: "failed" });
  });

  it("passes a cancel or answers to the process listening for the task, and says when none is", async () => {
    const [runner, other] = [open(), open()];
    const heard: TaskControlMessage[] = [];
    const stop = await runner.listen("talk", (message) => heard.push(message));
    expect(await other.send("talk", { kind: "update", responses: { q: { action: "accept" } } })).toBe(true);
    await probe.publish("toolwire:task:talk:control", "not json");
    await probe.publish("toolwire:task:talk:control", JSON.stringify({ kind: "explode" }));
    expect(await other.send("talk", { kind: "cancel" })).toBe(true);
    await expect.poll(() => heard.length).toBe(2);
    expect(heard).toEqual([{ kind: "update", responses: { q: { action: "accept" } } }, { kind: "cancel" }]);
    stop();
    await expect.poll(() => other.send("talk", { kind: "cancel" })).toBe(false);
    expect(heard).toHaveLength(2);
  });

  it("two servers sharing it: either one finds the task, and a cancel or an answer reaches the one running it", async () => {
    const [first, second] = [serve(open()), serve(open())];
    const call = first.begin("alice", "slow", new AbortController().signal);
    const record = await call.becameTask;
    expect(await second.get("alice", record.taskId)).toMatchObject({ status: "working", toolName: "slow" });
    expect(await second.get("bob", record.taskId)).toBeUndefined();
    expect(await second.cancel("bob", record.taskId)).toBe(false);

    const question = new AbortController();
    const answered = call.ask({
      request: { method: "elicitation/create" },
      message: "Approve?",
      signal: question.signal,
    });
    let waiting: TaskRecord | undefined;
    await expect
      .poll(async () => {
        waiting = await second.get("alice", record.taskId);
        return waiting?.status;
      })
      .toBe("input_required");
    const key = Object.keys(waiting?.inputRequests ?? {})[0] as string;
    expect(await second.update("alice", record.taskId, { [key]: { action: "accept" } })).toBe(true);
    expect(await answered).toEqual({ action: "accept" });
    await expect.poll(async () => (await second.get("alice", record.taskId))?.status).toBe("working");

    expect(call.signal.aborted).toBe(false);
    expect(await second.cancel("alice", record.taskId)).toBe(true);
    await expect.poll(() => call.signal.aborted).toBe(true);
    await expect.poll(async () => (await second.get("alice", record.taskId))?.status).toBe("cancelled");
    call.finish({ result: { content: [] } });
    await sleep(50);
    expect(await first.get("alice", record.taskId)).toMatchObject({ status: "cancelled" });
  });

  it("a server that closes with tasks still running ends them failed at once, for the servers sharing the store", async () => {
    const closing = serve(open());
    const other = serve(open());
    const call = closing.begin("alice", "slow", new AbortController().signal);
    const record = await call.becameTask;
    await closing.close();
    expect(call.signal.aborted).toBe(true);
    expect(await other.get("alice", record.taskId)).toMatchObject({
      status: "failed",
      error: { code: -32603, message: CLOSED_TASK_MESSAGE },
    });
  });

  it("Redis away: reads reject in bounded time, naming the address and not its password", async () => {
    const port = await freePort();
    const away = createRedisTaskStore({ connection: `redis://:hunter22@127.0.0.1:${port}`, timeoutMs: 300 });
    closing.push(away);
    const startedAt = Date.now();
    const failure = await away.get("x").then(
      () => undefined,
      (error: Error) => error,
    );
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(failure?.message).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ did not give the task: /);
    expect(failure?.message).not.toContain("hunter22");
  });
});
