// Held calls: a running call's questions handed out one step at a time, and a call nobody comes back to let go.
import { describe, expect, it } from "vitest";
import { createHeldCalls, type HeldCall } from "./held-calls.js";

const question = { toolCallId: "c1", toolName: "t", message: "Sure?" };
const done = (text: string) => ({ content: [{ type: "text" as const, text }] });

describe("createHeldCalls", () => {
  it("hands out each question, takes its answer, and ends with the call's result", async () => {
    const held = createHeldCalls();
    const call = held.hold("t", async (own: HeldCall) => {
      const first = await own.ask(question, { signal: own.signal });
      const second = await own.ask({ ...question, message: "Really?" }, { signal: own.signal });
      return done(`${first.action} ${second.action}`);
    }) as HeldCall;
    expect(held.find(call.id)).toBe(call);
    expect(await call.next()).toEqual({ kind: "question", question, round: 1 });
    expect(call.open()).toEqual({ kind: "question", question, round: 1 });
    expect(call.answer({ action: "accept" })).toBe(true);
    expect(call.open()).toBeUndefined();
    expect(call.answer({ action: "accept" })).toBe(false); // nothing open until the next question
    expect(await call.next()).toMatchObject({ kind: "question", question: { message: "Really?" }, round: 2 });
    call.answer({ action: "decline" });
    expect(await call.next()).toEqual({ kind: "done", result: done("accept decline") });
    expect(held.find(call.id)).toBeUndefined();
  });

  it("answers a keyed question the request brought an answer for, once, without asking it", async () => {
    const held = createHeldCalls();
    const ahead = (key: string) =>
      key === "name" ? ({ action: "accept", content: { name: "Ada" } } as const) : undefined;
    const call = held.hold(
      "t",
      async (own: HeldCall) => {
        const first = await own.ask({ ...question, key: "name" }, { signal: own.signal });
        const again = await own.ask({ ...question, key: "name" }, { signal: own.signal });
        const unkeyed = await own.ask(question, { signal: own.signal });
        return done(`${JSON.stringify(first)} ${again.action} ${unkeyed.action}`);
      },
      ahead,
    ) as HeldCall;
    expect(await call.next()).toEqual({ kind: "question", question: { ...question, key: "name" }, round: 1 });
    call.answer({ action: "decline" });
    expect(await call.next()).toEqual({ kind: "question", question, round: 2 });
    call.answer({ action: "cancel" });
    expect(await call.next()).toEqual({
      kind: "done",
      result: done('{"action":"accept","content":{"name":"Ada"}} decline cancel'),
    });
  });

  it("aborts and forgets a call whose question waits longer than waitMs, the question cancelled", async () => {
    const held = createHeldCalls({ waitMs: 50 });
    let answer: unknown;
    const call = held.hold("t", async (own) => {
      answer = await own.ask(question, { signal: own.signal });
      return done("after");
    }) as HeldCall;
    await call.next();
    await expect.poll(() => call.signal.aborted).toBe(true);
    expect(answer).toEqual({ action: "cancel" });
    expect(held.find(call.id)).toBeUndefined();
  });

  it("abort (the waiting request was cancelled) aborts the call and cancels its open question", async () => {
    const held = createHeldCalls();
    let answer: unknown;
    const call = held.hold("t", async (own) => {
      answer = await own.ask(question, { signal: own.signal });
      return done("after");
    }) as HeldCall;
    await call.next();
    call.abort(new Error("cancelled by the client"));
    expect(call.signal.aborted).toBe(true);
    await expect.poll(() => answer).toEqual({ action: "cancel" });
  });

  it("holds at most `max` calls, and a call that throws ends failed with what it threw (a JSON-RPC error)", async () => {
    const held = createHeldCalls({ max: 1 });
    const boom = new Error("boom");
    const call = held.hold("t", async () => {
      throw boom;
    }) as HeldCall;
    expect(held.hold("t", async () => done("x"))).toBeUndefined();
    expect(await call.next()).toEqual({ kind: "failed", error: boom });
    expect(held.hold("t", async () => done("x"))).toBeDefined();
  });
});
