// runProgram's limits, kept from outside the program: time (held time excluded), memory, calls, abort, the host loop.
import { describe, expect, it } from "vitest";
import { runProgram } from "./run-program.js";
import type { NestedCallAnswer, NestedCallRequest, ProgramLimits, ProgramOutcome } from "./types.js";

const LIMITS: ProgramLimits = {
  timeoutMs: 10_000,
  memoryBytes: 32 * 1024 * 1024,
  maxToolCalls: 100,
  maxOutputChars: 5000,
};

const echo = (requests: readonly NestedCallRequest[]) =>
  requests.map((request) => Promise.resolve<NestedCallAnswer>({ ok: true, value: request.input }));

function run(code: string, limits: Partial<ProgramLimits> = {}, signal?: AbortSignal): Promise<ProgramOutcome> {
  return runProgram({ code, limits: { ...LIMITS, ...limits }, callTools: echo, ...(signal ? { signal } : {}) }).outcome;
}

/**
 * Measures the host loop's worst lateness (a 5 ms interval) while `work` runs, as a share of how long it ran. A program
 * that ran on the host's thread would hold the loop for about all of its run (a share near 1) in every run; a busy
 * machine's scheduling shows in some runs, as a shorter stall: tests take the least share of three runs.
 */
async function worstLoopLag<T>(work: () => Promise<T>): Promise<{ result: T; worstShare: number }> {
  const started = performance.now();
  let last = started;
  let worstMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    worstMs = Math.max(worstMs, now - last - 5);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, worstShare: worstMs / Math.max(1, performance.now() - started) };
  } finally {
    clearInterval(probe);
  }
}

describe("time", () => {
  it("ends a program that spins with code-timeout", async () => {
    const started = performance.now();
    const outcome = await run(`console.log("start");\nwhile (true) {}`, { timeoutMs: 1000 });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-timeout" });
    expect((outcome as { message: string }).message).toBe("The program ran past its time limit of 1000 ms.\nstart");
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(await run("return 1;")).toMatchObject({ kind: "returned", output: "1" });
  });

  it("stops a program whose time ran out before its worker took it, without waiting to replace the worker", async () => {
    // A 1 ms limit runs out before the worker reads the program; the worker must still see the stop (it used to
    // lower the flag as it started, spin on, and be replaced a second later).
    const started = performance.now();
    const outcome = await run("while (true) {}", { timeoutMs: 1 });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-timeout" });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("ends a program that spins inside try/finally and catch blocks", async () => {
    const outcome = await run("for (;;) { try { while (true) {} } catch {} finally { continue; } }", {
      timeoutMs: 200,
    });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-timeout" });
  });

  it("ends a program waiting on a call that never answers with code-timeout", async () => {
    const outcome = await runProgram({
      code: "return await tools.forever({});",
      limits: { ...LIMITS, timeoutMs: 300 },
      callTools: (requests) => requests.map(() => new Promise<NestedCallAnswer>(() => {})),
    }).outcome;
    expect(outcome).toMatchObject({ kind: "failed", code: "code-timeout" });
    expect(await run("return 2;")).toMatchObject({ kind: "returned", output: "2" });
  });

  it("does not count time under holdClock", async () => {
    let holdClock!: () => () => void;
    const program = runProgram({
      code: "return await tools.approve({});",
      limits: { ...LIMITS, timeoutMs: 400 },
      callTools: (requests) =>
        requests.map(async (): Promise<NestedCallAnswer> => {
          const release = holdClock();
          await new Promise((resolve) => setTimeout(resolve, 1000));
          release();
          return { ok: true, value: "approved" };
        }),
    });
    holdClock = program.holdClock;
    expect(await program.outcome).toMatchObject({ kind: "returned", output: "approved" });
  });

  it("counts the time of a call that is not held", async () => {
    const outcome = await runProgram({
      code: "return await tools.slow({});",
      limits: { ...LIMITS, timeoutMs: 300 },
      callTools: (requests) =>
        requests.map(async (): Promise<NestedCallAnswer> => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          return { ok: true, value: "late" };
        }),
    }).outcome;
    expect(outcome).toMatchObject({ kind: "failed", code: "code-timeout" });
  });

  it("keeps the host loop running while a program spins: no stall near the program's whole run", async () => {
    const shares: number[] = [];
    for (let round = 0; round < 3; round++) {
      const { result, worstShare } = await worstLoopLag(() => run("while (true) {}", { timeoutMs: 400 }));
      expect(result).toMatchObject({ kind: "failed", code: "code-timeout" });
      shares.push(worstShare);
    }
    expect(Math.min(...shares)).toBeLessThan(0.5);
  });
});

describe("memory", () => {
  it("ends an allocation bomb with code-memory-exceeded, and the next program works", async () => {
    const shares: number[] = [];
    for (let round = 0; round < 3; round++) {
      const { result, worstShare } = await worstLoopLag(() =>
        run(`const a = []; while (true) a.push("x".repeat(1 << 16) + a.length);`, { memoryBytes: 16 * 1024 * 1024 }),
      );
      expect(result).toMatchObject({ kind: "failed", code: "code-memory-exceeded" });
      expect((result as { message: string }).message).toContain("out of memory");
      shares.push(worstShare);
    }
    // The host loop kept running while the program allocated to its cap.
    expect(Math.min(...shares)).toBeLessThan(0.5);
    expect(await run("return [1, 2].length;", { memoryBytes: 16 * 1024 * 1024 })).toMatchObject({
      kind: "returned",
      output: "2",
    });
  });

  it("holds the cap when the program catches the out-of-memory error and tries again", async () => {
    const code = `const keep = [];
      for (let round = 0; round < 3; round++) {
        try { while (true) keep.push(new Array(1000).fill(round)); } catch {}
      }
      throw new Error("still here with " + keep.length);`;
    const outcome = await run(code, { memoryBytes: 16 * 1024 * 1024 });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-memory-exceeded" });
  });

  it("ends a program that asks for one huge buffer with code-memory-exceeded", async () => {
    const outcome = await run("return new ArrayBuffer(1 << 30).byteLength;", { memoryBytes: 16 * 1024 * 1024 });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-memory-exceeded" });
  });
});

describe("calls", () => {
  it("ends the program at the call after maxToolCalls with code-too-many-calls", async () => {
    const calls: NestedCallRequest[] = [];
    const outcome = await runProgram({
      code: "for (let i = 0; i < 10; i++) { try { await tools.x({ i }); } catch {} }\nreturn 'finished';",
      limits: { ...LIMITS, maxToolCalls: 3 },
      callTools: (requests) => {
        calls.push(...requests);
        return echo(requests);
      },
    }).outcome;
    expect(outcome).toMatchObject({ kind: "failed", code: "code-too-many-calls" });
    expect((outcome as { message: string }).message).toContain("more than 3 tool calls");
    expect(calls.map((call) => call.seq)).toEqual([1, 2, 3]);
  });

  it("does not send the calls over the limit of one Promise.all", async () => {
    const calls: NestedCallRequest[] = [];
    const outcome = await runProgram({
      code: "await Promise.all([1, 2, 3, 4, 5].map((i) => tools.x({ i })));",
      limits: { ...LIMITS, maxToolCalls: 2 },
      callTools: (requests) => {
        calls.push(...requests);
        return echo(requests);
      },
    }).outcome;
    expect(outcome).toMatchObject({ kind: "failed", code: "code-too-many-calls" });
    expect(calls).toEqual([]);
  });
});

describe("what crosses to the host stays small", () => {
  it("refuses inside the program a call whose input is over 1 MiB of JSON", async () => {
    const calls: NestedCallRequest[] = [];
    const outcome = await runProgram({
      code: `try { await tools.write({ text: "x".repeat(2 * 1024 * 1024) }); } catch (error) { return error.name + ": " + error.message; }`,
      limits: { ...LIMITS, memoryBytes: 64 * 1024 * 1024 },
      callTools: (requests) => {
        calls.push(...requests);
        return echo(requests);
      },
    }).outcome;
    expect(outcome).toMatchObject({ kind: "returned" });
    expect((outcome as { output: string }).output).toMatch(
      /^RangeError: tools\.write: the input is \d+ characters as JSON/,
    );
    expect(calls).toEqual([]);
  });

  it("refuses inside the program a tool name longer than 256 characters", async () => {
    const outcome = await run(`try { await tools["t".repeat(300)]({}); } catch (error) { return error.name; }`);
    expect(outcome).toMatchObject({ kind: "returned", output: "TypeError" });
  });

  it("sends large inputs of one Promise.all in more than one batch", async () => {
    const batches: number[][] = [];
    const outcome = await runProgram({
      code: `const text = "x".repeat(600 * 1024);
        return (await Promise.all([1, 2, 3].map((i) => tools.write({ i, text })))).length;`,
      limits: { ...LIMITS, memoryBytes: 64 * 1024 * 1024 },
      callTools: (requests) => {
        batches.push(requests.map((request) => request.seq));
        return echo(requests);
      },
    }).outcome;
    expect(outcome).toMatchObject({ kind: "returned", output: "3" });
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it("cuts a huge returned value in the worker and counts what it left out", async () => {
    const result = await run(`return "y".repeat(8 * 1024 * 1024);`, {
      memoryBytes: 64 * 1024 * 1024,
      maxOutputChars: 100,
    });
    expect((result as { output: string }).output).toBe(
      `${"y".repeat(100)}\n[output cut: 8388508 of 8388608 characters left out; the limit is 100]`,
    );
  });
});

describe("abort", () => {
  it("ends a spinning program promptly with aborted", async () => {
    const controller = new AbortController();
    const outcome = run("while (true) {}", { timeoutMs: 60_000 }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    expect(await outcome).toMatchObject({ kind: "failed", code: "aborted" });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await run("return 3;")).toMatchObject({ kind: "returned", output: "3" });
  });

  it("ends a program waiting on a call with aborted", async () => {
    const controller = new AbortController();
    const outcome = runProgram({
      code: "return await tools.forever({});",
      limits: LIMITS,
      signal: controller.signal,
      callTools: (requests) => {
        setTimeout(() => controller.abort(), 10);
        return requests.map(() => new Promise<NestedCallAnswer>(() => {}));
      },
    }).outcome;
    expect(await outcome).toMatchObject({ kind: "failed", code: "aborted" });
  });

  it("does not start a program whose signal is already aborted", async () => {
    let called = false;
    const outcome = await runProgram({
      code: "await tools.x({});",
      limits: LIMITS,
      signal: AbortSignal.abort(),
      callTools: (requests) => {
        called = true;
        return echo(requests);
      },
    }).outcome;
    expect(outcome).toMatchObject({ kind: "failed", code: "aborted" });
    expect(called).toBe(false);
  });
});

describe("overlapping programs", () => {
  it("runs programs at once on separate workers", async () => {
    const outcomes = await Promise.all(
      [1, 2, 3].map((n) => run(`const r = await tools.echo({ n: ${n} }); return r.n * 10;`)),
    );
    expect(outcomes.map((outcome) => (outcome as { output: string }).output)).toEqual(["10", "20", "30"]);
  });

  it("holds programs beyond four workers until one is free, and runs them all", async () => {
    let running = 0;
    let mostRunning = 0;
    const outcomes = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(
        (n) =>
          runProgram({
            code: `return (await tools.slow({ n: ${n} })).n;`,
            limits: LIMITS,
            callTools: (requests) =>
              requests.map(async (request): Promise<NestedCallAnswer> => {
                running += 1;
                mostRunning = Math.max(mostRunning, running);
                await new Promise((resolve) => setTimeout(resolve, 100));
                running -= 1;
                return { ok: true, value: request.input };
              }),
          }).outcome,
      ),
    );
    expect(outcomes.map((outcome) => (outcome as { output: string }).output)).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(mostRunning).toBeLessThanOrEqual(4);
  });
});
