import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTerminal, type TaskEvent, type TaskRecord, taskOnTheWire, transitionTask } from "./task-record.js";

const KEEP = 60_000;
const working: TaskRecord = {
  taskId: "t1",
  principal: "alice",
  toolName: "deploy",
  status: "working",
  createdAt: 1_000,
  lastUpdatedAt: 1_000,
  pollIntervalMs: 1_000,
};
const ask = (key: string): TaskEvent => ({
  kind: "asked",
  key,
  request: { method: "elicitation/create" },
  message: "?",
});

describe("transitionTask", () => {
  it("a question makes the task input_required with it, its answer makes it working again", () => {
    const asked = transitionTask(working, ask("a"), 2_000, KEEP);
    expect(asked).toMatchObject({ status: "input_required", lastUpdatedAt: 2_000, inputRequests: { a: {} } });
    const answered = transitionTask(asked, { kind: "answered", key: "a" }, 3_000, KEEP);
    expect(answered.status).toBe("working");
    expect(answered.inputRequests).toBeUndefined();
    expect(answered.statusMessage).toBeUndefined();
  });

  it("the call's end keeps the result, to be forgotten keepMs later", () => {
    const result = { content: [{ type: "text", text: "ok" }] };
    const done = transitionTask(working, { kind: "completed", result }, 5_000, KEEP);
    expect(done).toMatchObject({ status: "completed", result, expiresAt: 65_000 });
    expect(taskOnTheWire(done)).toMatchObject({ ttlMs: 64_000, result, createdAt: new Date(1_000).toISOString() });
    expect(taskOnTheWire(working).ttlMs).toBeNull();
  });

  it("property: an ended task never changes, whatever comes after", () => {
    const event = fc.oneof(
      fc.string().map((key) => ask(key)),
      fc.string().map((key): TaskEvent => ({ kind: "answered", key })),
      fc.constant<TaskEvent>({ kind: "completed", result: { content: [] } }),
      fc.constant<TaskEvent>({ kind: "failed", error: { code: -32603, message: "x" } }),
      fc.constant<TaskEvent>({ kind: "cancelled" }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (events) => {
        let record = working;
        let ended: TaskRecord | undefined;
        events.forEach((next, index) => {
          record = transitionTask(record, next, 2_000 + index, KEEP);
          if (ended !== undefined) expect(record).toBe(ended);
          else if (isTerminal(record.status)) ended = record;
        });
      }),
    );
  });
});
