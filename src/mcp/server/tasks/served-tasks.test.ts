import { describe, expect, it } from "vitest";
import { createMemoryTaskStore } from "./memory-task-store.js";
import { createServedTasks } from "./served-tasks.js";
import type { TaskStore } from "./task-store.js";

describe("createServedTasks", () => {
  it("refuses malformed options with invalid-serve-options, naming the field", () => {
    for (const [options, field] of [
      [{ afterMs: -1 }, "tasks.afterMs"],
      [{ ttlMs: 1.5 }, "tasks.ttlMs"],
      [{ store: "redis://127.0.0.1:6379" }, "tasks.store"],
    ] as const) {
      expect(() => createServedTasks(options as never)).toThrow(
        expect.objectContaining({ code: "invalid-serve-options", message: expect.stringContaining(field) }),
      );
    }
  });

  it("a call that ends before afterMs never becomes a task; one that outlasts it does, for its principal only", async () => {
    const served = createServedTasks({ afterMs: 30 });
    try {
      const quick = served.begin("alice", "echo", new AbortController().signal);
      quick.finish({ result: { content: [] } });
      const slow = served.begin("alice", "slow", new AbortController().signal);
      const record = await slow.becameTask;
      expect(record).toMatchObject({ principal: "alice", toolName: "slow", status: "working" });
      expect(await served.get("bob", record.taskId)).toBeUndefined();
      slow.finish({ result: { content: [{ type: "text", text: "done" }] } });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await served.get("alice", record.taskId)).toMatchObject({ status: "completed" });
      expect(await Promise.race([quick.becameTask, new Promise((resolve) => setTimeout(resolve, 60, "none"))])).toBe(
        "none",
      );
    } finally {
      await served.close();
    }
  });
});

describe("createServedTasks require", () => {
  const descriptor = (name: string) => ({ name, description: "", inputSchema: { type: "object" } }) as never;

  it("names the tools whose calls always run as tasks, by policy pattern, case aside", async () => {
    const served = createServedTasks({ require: ["Build", "group:runtime"] });
    try {
      expect(served.required("build", descriptor("build"))).toBe(true);
      expect(served.required("bash", descriptor("bash"))).toBe(true);
      expect(served.required("read", descriptor("read"))).toBe(false);
      // A tool the session does not have is not required: its call answers tool-not-found as before.
      expect(served.required("build", undefined)).toBe(false);
      expect(createServedTasks().required("build", descriptor("build"))).toBe(false);
    } finally {
      await served.close();
    }
  });

  it("refuses a require that is not a list of patterns", () => {
    for (const require of ["build", [1], {}]) {
      expect(() => createServedTasks({ require } as never)).toThrow(
        expect.objectContaining({ code: "invalid-serve-options", message: expect.stringContaining("tasks.require") }),
      );
    }
  });

  it("a required call that ends before afterMs becomes a task as it ends, stored ended before it is handed out", async () => {
    const served = createServedTasks({ afterMs: 60_000 });
    try {
      const call = served.begin("alice", "build", new AbortController().signal, true);
      expect(call.isTask()).toBe(false);
      call.finish({ result: { content: [{ type: "text", text: "built" }] } });
      const record = await call.becameTask;
      expect(record).toMatchObject({ toolName: "build", status: "completed" });
      expect(await served.get("alice", record.taskId)).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: "built" }] },
      });
    } finally {
      await served.close();
    }
  });

  it("a required call still running at afterMs becomes a task then, and one that ends in an error fails with its code", async () => {
    const served = createServedTasks({ afterMs: 10 });
    try {
      const call = served.begin("alice", "build", new AbortController().signal, true);
      const record = await call.becameTask;
      expect(record).toMatchObject({ status: "working" });
      expect(call.isTask()).toBe(true);
      call.finish({ error: Object.assign(new Error("not a tool result"), { code: -32603 }) });
      await expect
        .poll(() => served.get("alice", record.taskId))
        .toMatchObject({
          status: "failed",
          error: { code: -32603, message: "not a tool result" },
        });
    } finally {
      await served.close();
    }
  });
});

describe("createServedTasks with a slow store", () => {
  it("writes a call's end after its task's creation, even when the call ends while the store is still creating it", async () => {
    const memory = createMemoryTaskStore();
    let creating = false;
    const slow: TaskStore = {
      ...memory,
      async create(record) {
        creating = true;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await memory.create(record);
      },
    };
    const served = createServedTasks({ store: slow, afterMs: 10 });
    try {
      const call = served.begin("alice", "build", new AbortController().signal);
      await expect.poll(() => creating).toBe(true);
      call.finish({ result: { content: [{ type: "text", text: "built" }] } });
      const record = await call.becameTask;
      await expect.poll(() => served.get("alice", record.taskId)).toMatchObject({ status: "completed" });
    } finally {
      await served.close();
    }
  });
});

describe("createServedTasks with a store that cannot keep a task", () => {
  it("fails becameTask of a call that must be a task; one past afterMs stays a plain call", async () => {
    const failing: TaskStore = {
      create: () => Promise.reject(new Error("store down")),
      get: async () => undefined,
      put: async () => {},
      close: async () => {},
    };
    const served = createServedTasks({ store: failing, afterMs: 10 });
    try {
      const signal = new AbortController().signal;
      await expect(served.begin("alice", "build", signal, true).becameTask).rejects.toThrow("store down");
      const slow = served.begin("alice", "slow", signal);
      const settled = await Promise.race([
        slow.becameTask.then(
          () => "task",
          () => "failed",
        ),
        new Promise((resolve) => setTimeout(() => resolve("still a call"), 200)),
      ]);
      expect(settled).toBe("still a call");
      slow.finish({ result: { content: [] } });
    } finally {
      await served.close();
    }
  });
});
