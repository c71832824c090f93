import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { builtScript } from "../../../test/e2e/helpers/build.js";
import { createDeadlineClock } from "./deadline-clock.js";

describe("createDeadlineClock", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const recorder = () => {
    const expired: string[] = [];
    return { expired, target: (name: string) => ({ expire: () => expired.push(name) }) };
  };

  it("expires each deadline once, when its delay has passed since its start, in order", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    clock.after(100, performance.now(), target("a"));
    await vi.advanceTimersByTimeAsync(40);
    clock.after(100, performance.now(), target("b"));
    clock.after(30, performance.now(), target("short"));
    await vi.advanceTimersByTimeAsync(29);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(["short"]);
    await vi.advanceTimersByTimeAsync(29);
    expect(expired).toEqual(["short"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(["short", "a"]);
    await vi.advanceTimersByTimeAsync(40);
    expect(expired).toEqual(["short", "a", "b"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(expired).toEqual(["short", "a", "b"]);
  });

  it("counts from the start it is given, not from when it was set", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    const started = performance.now();
    await vi.advanceTimersByTimeAsync(70);
    clock.after(100, started, target("late-set"));
    await vi.advanceTimersByTimeAsync(29);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(["late-set"]);
  });

  it("never fires early, whatever the delays and the order they are set in (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ delay: fc.integer({ min: 1, max: 2_000 }), wait: fc.integer({ min: 0, max: 300 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (steps) => {
          const clock = createDeadlineClock();
          const fired: { setAt: number; delay: number; firedAt: number }[] = [];
          for (const { delay, wait } of steps) {
            const setAt = performance.now();
            const record = { setAt, delay, firedAt: -1 };
            fired.push(record);
            clock.after(delay, setAt, { expire: () => (record.firedAt = performance.now()) });
            await vi.advanceTimersByTimeAsync(wait);
          }
          await vi.advanceTimersByTimeAsync(2_001);
          for (const { setAt, delay, firedAt } of fired) {
            expect(firedAt).toBeGreaterThanOrEqual(setAt + delay);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a cancelled deadline never expires, and cancelling twice is harmless", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    const first = clock.after(50, performance.now(), target("cancelled"));
    clock.after(50, performance.now(), target("kept"));
    first.cancel();
    first.cancel();
    await vi.advanceTimersByTimeAsync(100);
    expect(expired).toEqual(["kept"]);
  });

  it("keeps working through many cancelled deadlines (they are swept) and a throwing target", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    for (let index = 0; index < 10_000; index++) clock.after(50, performance.now(), target(`x${index}`)).cancel();
    clock.after(50, performance.now(), {
      expire: () => {
        throw new Error("bad target");
      },
    });
    clock.after(50, performance.now(), target("after the throw"));
    await vi.advanceTimersByTimeAsync(60);
    expect(expired).toEqual(["after the throw"]);
  });
});

describe("the clock and the process", () => {
  const built = pathToFileURL(builtScript("dist/core/dispatch/deadline-clock.js")).href;
  const run = (body: string) =>
    execFileSync(
      process.execPath,
      ["--input-type=module", "-e", `const { createDeadlineClock } = await import(${JSON.stringify(built)}); ${body}`],
      { encoding: "utf8", timeout: 20_000 },
    );

  it("holds the process while a deadline is pending", () => {
    const started = Date.now();
    expect(run("createDeadlineClock().after(300, performance.now(), { expire: () => console.log('expired') });")).toBe(
      "expired\n",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("lets the process exit once no deadline is pending", () => {
    const started = Date.now();
    run("createDeadlineClock().after(60_000, performance.now(), { expire() {} }).cancel();");
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
