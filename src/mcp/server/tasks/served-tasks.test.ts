import { describe, expect, it } from "vitest";
import { createServedTasks } from "./served-tasks.js";

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
