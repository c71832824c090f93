// runProgram's clock: Date.now(), new Date() and Math.random() are recorded, and a replay gives them back in order.
import { describe, expect, it } from "vitest";
import { runProgram } from "./run-program.js";
import type { NestedCallAnswer, ProgramClock, ProgramLimits, ProgramOutcome } from "./types.js";

const LIMITS: ProgramLimits = {
  timeoutMs: 10_000,
  memoryBytes: 32 * 1024 * 1024,
  maxToolCalls: 100,
  maxOutputChars: 5000,
};

/** Runs a program; a call to `forever` never answers and aborts the program (when a controller is given). */
function run(code: string, replay?: ProgramClock, controller?: AbortController): Promise<ProgramOutcome> {
  return runProgram({
    code,
    limits: LIMITS,
    callTools: (requests) =>
      requests.map((request) => {
        if (request.tool !== "forever") return Promise.resolve<NestedCallAnswer>({ ok: true, value: request.input });
        setTimeout(() => controller?.abort(), 10);
        return new Promise<NestedCallAnswer>(() => {});
      }),
    ...(replay === undefined ? {} : { replay }),
    ...(controller === undefined ? {} : { signal: controller.signal }),
  }).outcome;
}

const PROGRAM = `const a = Date.now(); const d = new Date(); const r = [Math.random(), Math.random()];
  return { a, d: d.getTime(), r, fixed: new Date(5).getTime(), text: typeof Date(), isDate: d instanceof Date };`;

describe("the program's clock", () => {
  it("records every Date.now(), new Date() and Math.random() in order", async () => {
    const before = Date.now();
    const outcome = await run(PROGRAM);
    expect(outcome.kind).toBe("returned");
    const value = JSON.parse((outcome as { output: string }).output);
    // Date() called as a function reads the clock too (a fourth value read, after Date.now and new Date).
    expect(outcome.clock.now).toEqual([value.a, value.d, expect.any(Number)]);
    expect(outcome.clock.random).toEqual(value.r);
    expect(value.a).toBeGreaterThanOrEqual(before);
    expect(value).toMatchObject({ fixed: 5, text: "string", isDate: true });
  });

  it("returns replayed values first, in order, then live ones", async () => {
    const outcome = await run(PROGRAM, { now: [1000, 2000], random: [0.25] });
    const value = JSON.parse((outcome as { output: string }).output);
    expect(value.a).toBe(1000);
    expect(value.d).toBe(2000);
    expect(value.r[0]).toBe(0.25);
    expect(value.r[1]).not.toBe(0.25);
    expect(outcome.clock.now.slice(0, 2)).toEqual([1000, 2000]);
    expect(outcome.clock.random).toEqual(value.r);
  });

  it("a replay of a recorded run gives the same output", async () => {
    const first = await run(PROGRAM);
    const again = await run(PROGRAM, first.clock);
    expect(again).toEqual(first);
  });

  it("keeps the values read before a program was aborted while it waited", async () => {
    const controller = new AbortController();
    const ended = await run("const t = Date.now(); Math.random(); await tools.forever({ t });", undefined, controller);
    expect(ended).toMatchObject({ kind: "failed", code: "aborted" });
    expect(ended.clock.now).toHaveLength(1);
    expect(ended.clock.random).toHaveLength(1);
  });
});
