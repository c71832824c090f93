// The call history: a call resumed after a pause keeps its row, and the oldest bodies go once the budget is passed.
import { describe, expect, it } from "vitest";
import { createCallHistory } from "./create-call-history.js";

const limits = { maxCalls: 100, maxBodyBytes: 1_000, maxTotalBytes: 2_500 };

function history() {
  const changed: number[] = [];
  const calls = createCallHistory(limits, { changed: (key) => changed.push(key), dropped: () => {} });
  return { calls, changed };
}

function end(calls: ReturnType<typeof history>["calls"], id: string, text: string) {
  calls.end("s1", {
    toolCallId: id,
    toolName: "echo",
    durationMs: 1,
    isError: false,
    result: { content: [{ type: "text", text }] },
  });
}

describe("createCallHistory", () => {
  it("keeps one row for a call that starts again with its id after a pause for approval", () => {
    const { calls } = history();
    calls.start("s1", { toolCallId: "c1", toolName: "echo", input: {}, startedAt: 1 });
    calls.approvalRequested("s1", {
      approvalId: "a1",
      toolCallId: "c1",
      toolName: "echo",
      input: {},
      inputDigest: "sha256:00",
      descriptor: { name: "echo", description: "", inputSchema: { type: "object" }, owner: { kind: "core" } },
      expiresAt: 10,
    });
    expect(calls.summaries().map((call) => call.status)).toEqual(["approval"]);
    calls.start("s1", { toolCallId: "c1", toolName: "echo", input: {}, startedAt: 5 });
    end(calls, "c1", "done");
    expect(calls.summaries().map((call) => [call.toolCallId, call.status, call.startedAt])).toEqual([["c1", "ok", 1]]);
  });

  it("drops the oldest calls' bodies once the kept bodies pass the budget, and keeps their rows", () => {
    const { calls } = history();
    for (const id of ["c1", "c2", "c3"]) {
      calls.start("s1", { toolCallId: id, toolName: "echo", input: "x".repeat(500), startedAt: 1 });
      end(calls, id, "y".repeat(500));
    }
    const [first, , last] = calls.summaries();
    expect(calls.detail(first?.key ?? 0)).toMatchObject({ dropped: true, status: "ok" });
    expect(calls.detail(first?.key ?? 0)?.input).toBeUndefined();
    expect(calls.detail(last?.key ?? 0)?.result?.content.text).toBe("y".repeat(500));
  });

  it("keeps the parent of a call a program made, and none for a model's call", () => {
    const { calls } = history();
    calls.start("s1", { toolCallId: "p", toolName: "run_code", input: {}, startedAt: 1 });
    calls.start("s1", { toolCallId: "p.1", toolName: "echo", input: {}, startedAt: 2, parentToolCallId: "p" });
    end(calls, "p.1", "one");
    const [program, nested] = calls.summaries();
    expect(nested?.parentToolCallId).toBe("p");
    expect(calls.detail(nested?.key ?? 0)?.parentToolCallId).toBe("p");
    expect(program !== undefined && "parentToolCallId" in program).toBe(false);
  });

  it("keeps the same call id apart in two sessions", () => {
    const { calls } = history();
    calls.start("s1", { toolCallId: "c1", toolName: "echo", input: {}, startedAt: 1 });
    calls.start("s2", { toolCallId: "c1", toolName: "echo", input: {}, startedAt: 2 });
    end(calls, "c1", "one");
    expect(calls.summaries().map((call) => [call.sessionId, call.status])).toEqual([
      ["s1", "ok"],
      ["s2", "running"],
    ]);
  });
});
