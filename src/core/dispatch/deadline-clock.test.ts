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

  it("expires each deadline once, never early and at most a sixteenth late, in the order they were set", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    clock.after(320, target("a"));
    await vi.advanceTimersByTimeAsync(40);
    clock.after(320, target("b"));
    clock.after(64, target("short"));
    await vi.advanceTimersByTimeAsync(63);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(4);
    expect(expired).toEqual(["short"]);
    await vi.advanceTimersByTimeAsync(216); // 319 ms after "a"
    expect(expired).toEqual(["short"]);
    await vi.advanceTimersByTimeAsync(21); // 340 ms: 320 and two ticks of 10
    expect(expired).toEqual(["short", "a"]);
    await vi.advanceTimersByTimeAsync(40);
    expect(expired).toEqual(["short", "a", "b"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(expired).toEqual(["short", "a", "b"]);
  });

  it("never fires early, whatever the delay and wherever in a tick it was set (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 0, max: 400 }), async (delay, offset) => {
        const clock = createDeadlineClock();
        clock.after(delay, { expire() {} }); // starts the lane's ticking
        await vi.advanceTimersByTimeAsync(offset);
        let firedAt = -1;
        const setAt = Date.now();
        clock.after(delay, { expire: () => (firedAt = Date.now()) });
        await vi.advanceTimersByTimeAsync(delay + Math.floor(delay / 16) + 3);
        expect(firedAt - setAt).toBeGreaterThanOrEqual(delay);
        expect(firedAt - setAt).toBeLessThanOrEqual(delay + Math.max(2, Math.floor(delay / 16)));
      }),
      { numRuns: 60 },
    );
  });

  it("a cancelled deadline never expires, and cancelling twice is harmless", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    const first = clock.after(50, target("cancelled"));
    clock.after(50, target("kept"));
    first.cancel();
    first.cancel();
    await vi.advanceTimersByTimeAsync(100);
    expect(expired).toEqual(["kept"]);
  });

  it("keeps working through many cancelled deadlines (they are swept) and a throwing target", async () => {
    const clock = createDeadlineClock();
    const { expired, target } = recorder();
    for (let index = 0; index < 10_000; index++) clock.after(50, target(`x${index}`)).cancel();
    clock.after(50, {
      expire: () => {
        throw new Error("bad target");
      },
    });
    clock.after(50, target("after the throw"));
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
    expect(run("createDeadlineClock().after(300, { expire: () => console.log('expired') });")).toBe("expired\n");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("lets the process exit once no deadline is pending", () => {
    const started = Date.now();
    run("createDeadlineClock().after(60_000, { expire() {} }).cancel();");
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
