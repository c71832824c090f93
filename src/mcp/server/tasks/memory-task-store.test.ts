import { afterEach, describe, expect, it } from "vitest";
import { createMemoryTaskStore } from "./memory-task-store.js";
import type { TaskRecord } from "./task-record.js";
import type { TaskStore } from "./task-store.js";

const stores: TaskStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const record = (taskId: string, expiresAt?: number): TaskRecord => ({
  taskId,
  principal: "alice",
  toolName: "slow",
  status: expiresAt === undefined ? "working" : "completed",
  createdAt: 0,
  lastUpdatedAt: 0,
  pollIntervalMs: 1_000,
  ...(expiresAt === undefined ? {} : { expiresAt, result: { content: [] } }),
});

describe("createMemoryTaskStore", () => {
  it("forgets an ended task once it expires, and keeps one whose call still runs", async () => {
    const store = createMemoryTaskStore({ sweepMs: 20 });
    stores.push(store);
    await store.create(record("running"));
    await store.create(record("ended", Date.now() + 50));
    expect(await store.get("ended")).toMatchObject({ status: "completed" });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.get("ended")).toBeUndefined();
    expect(await store.get("running")).toMatchObject({ status: "working" });
  });

  it("a record already past its expiry is not found, before any sweep", async () => {
    const store = createMemoryTaskStore();
    stores.push(store);
    await store.put(record("old", Date.now() - 1));
    expect(await store.get("old")).toBeUndefined();
  });
});
