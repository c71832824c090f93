import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ToolResult } from "../types.js";
import { type CallEvent, type CallState, nextCallState, pausedCall, receivedCall } from "./call-state.js";

const request: ApprovalRequest = {
  approvalId: "a1",
  toolCallId: "c1",
  toolName: "write",
  input: { path: "x" },
  inputDigest: "sha256:00",
  descriptor: { name: "write", description: "Writes", inputSchema: { type: "object" }, owner: { kind: "core" } },
  expiresAt: 1_000,
};
const ok: ToolResult = { content: [{ type: "text", text: "done" }] };
const failed: ToolResult = { content: [{ type: "text", text: "timed out" }], isError: true };

function run(...events: CallEvent[]): CallState {
  return events.reduce(nextCallState, receivedCall("c1", "write"));
}

describe("nextCallState", () => {
  it("goes received, ready, running, executed, ended for a call that runs", () => {
    const input = { path: "x" };
    expect(run({ kind: "checked", input })).toEqual({ kind: "ready", id: "c1", toolName: "write", input });
    expect(run({ kind: "checked", input }, { kind: "started" })).toEqual({
      kind: "running",
      id: "c1",
      toolName: "write",
      input,
    });
    const ended = run(
      { kind: "checked", input },
      { kind: "started" },
      { kind: "executed", result: ok },
      { kind: "end" },
    );
    expect(ended).toEqual({ kind: "ended", id: "c1", toolName: "write", result: ok });
  });

  it("keeps the input the before hooks left", () => {
    const state = run({ kind: "checked", input: { path: "x" } }, { kind: "allowed", input: { path: "y" } });
    expect(state).toMatchObject({ kind: "ready", input: { path: "y" } });
  });

  it("ends a refused call with its message as an error result and its code", () => {
    const refused = run({ kind: "refused", code: "invalid-input", message: "Invalid input" });
    expect(refused).toEqual({
      kind: "refused",
      id: "c1",
      toolName: "write",
      code: "invalid-input",
      message: "Invalid input",
    });
    expect(nextCallState(refused, { kind: "end" })).toEqual({
      kind: "ended",
      id: "c1",
      toolName: "write",
      result: { content: [{ type: "text", text: "Invalid input" }], isError: true },
      errorCode: "invalid-input",
    });
  });

  it("keeps the executor's error code while the result is an error, and drops it when an after hook cleared it", () => {
    const executed = run(
      { kind: "checked", input: {} },
      { kind: "started" },
      { kind: "executed", result: failed, errorCode: "timeout" },
    );
    expect(nextCallState(executed, { kind: "end" })).toMatchObject({ errorCode: "timeout" });
    const cleared = nextCallState(executed, { kind: "result-changed", result: ok });
    expect(cleared).toMatchObject({ kind: "executed", result: ok });
    expect(nextCallState(cleared, { kind: "end" })).not.toHaveProperty("errorCode");
  });

  it("asks, then runs exactly the approved input, and skips the before hooks' rewrite once approved", () => {
    const asked = run({ kind: "checked", input: { path: "x" } }, { kind: "approval-requested", request });
    expect(asked).toEqual({ kind: "awaiting-approval", id: "c1", toolName: "write", request });
    const approved = nextCallState(asked, { kind: "approved", input: { path: "x" } });
    expect(approved).toEqual({ kind: "ready", id: "c1", toolName: "write", input: { path: "x" }, approved: true });
    expect(nextCallState(approved, { kind: "allowed", input: { path: "other" } })).toBe(approved);
  });

  it("pauses a call, and a paused call read back from its request can be approved or declined", () => {
    const paused = run({ kind: "checked", input: { path: "x" } }, { kind: "paused", request });
    expect(paused).toEqual(pausedCall(request));
    expect(nextCallState(pausedCall(request), { kind: "approved", input: { path: "x" } })).toMatchObject({
      kind: "ready",
      approved: true,
    });
    expect(
      nextCallState(pausedCall(request), { kind: "refused", code: "approval-declined", message: "no" }),
    ).toMatchObject({ kind: "refused", code: "approval-declined" });
  });

  it("lets a running executor suspend its call for a nested call's approval, keeping its continuation", () => {
    const continuation = { v: 1, steps: [] };
    const running = run({ kind: "checked", input: { path: "x" } }, { kind: "started" });
    const paused = nextCallState(running, { kind: "suspended", request, continuation });
    expect(paused).toEqual({ kind: "paused", id: "c1", toolName: "write", request, continuation });
    expect(nextCallState(paused, { kind: "end" })).toBe(paused);
    expect(nextCallState(paused, { kind: "executed", result: ok })).toBe(paused);
    const ready = run({ kind: "checked", input: {} });
    expect(nextCallState(ready, { kind: "suspended", request, continuation })).toBe(ready);
  });

  it("lets a call aborted before its executor started go on as executed", () => {
    const state = run({ kind: "checked", input: {} }, { kind: "executed", result: failed, errorCode: "aborted" });
    expect(state).toMatchObject({ kind: "executed", errorCode: "aborted" });
  });

  it("ignores a second outcome, and a refusal once the executor started", () => {
    const executed = run({ kind: "checked", input: {} }, { kind: "started" }, { kind: "executed", result: ok });
    expect(nextCallState(executed, { kind: "executed", result: failed, errorCode: "timeout" })).toBe(executed);
    const running = run({ kind: "checked", input: {} }, { kind: "started" });
    expect(nextCallState(running, { kind: "refused", code: "aborted", message: "no" })).toBe(running);
  });

  it("ends any unfinished call as execution-failed on a fault inside toolwire", () => {
    for (const state of [receivedCall("c1", "write"), run({ kind: "checked", input: {} }, { kind: "started" })]) {
      expect(nextCallState(state, { kind: "failed", message: "bug" })).toMatchObject({
        kind: "ended",
        errorCode: "execution-failed",
        result: { isError: true },
      });
    }
  });
});

describe("a call's state", () => {
  const input = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean()));
  const event: fc.Arbitrary<CallEvent> = fc.oneof(
    fc.record({ kind: fc.constant("checked" as const), input }),
    fc.record({ kind: fc.constant("allowed" as const), input }),
    fc.record({
      kind: fc.constant("refused" as const),
      code: fc.constantFrom("invalid-input", "blocked-by-hook", "approval-declined", "aborted" as const),
      message: fc.string(),
    }),
    fc.constant({ kind: "approval-requested" as const, request }),
    fc.constant({ kind: "paused" as const, request }),
    fc.constant({ kind: "suspended" as const, request, continuation: { steps: [1, "two", null] } }),
    fc.record({ kind: fc.constant("approved" as const), input }),
    fc.constant({ kind: "started" as const }),
    fc.constant({ kind: "executed" as const, result: ok }),
    fc.constant({ kind: "executed" as const, result: failed, errorCode: "timeout" as const }),
    fc.constant({ kind: "result-changed" as const, result: ok }),
    fc.constant({ kind: "end" as const }),
    fc.record({ kind: fc.constant("failed" as const), message: fc.string() }),
  );

  it("is plain JSON after any events, and nothing moves a call out of ended (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (events) => {
        let state = receivedCall("c1", "write");
        for (const next of events) {
          const before = state;
          state = nextCallState(state, next);
          if (before.kind === "ended") expect(state).toBe(before);
          expect(JSON.parse(JSON.stringify(state))).toEqual(state);
          expect(state.id).toBe("c1");
        }
      }),
    );
  });
});
