// startProgramDeadline: the time limit runs on the wall clock and stops while held.
import { describe, expect, it } from "vitest";
import { startProgramDeadline } from "./program-deadline.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the milliseconds from now until the deadline expires. */
function expiry(timeoutMs: number, during?: (deadline: ReturnType<typeof startProgramDeadline>) => void) {
  const started = performance.now();
  return new Promise<number>((resolve) => {
    const deadline = startProgramDeadline(timeoutMs, () => resolve(performance.now() - started));
    during?.(deadline);
  });
}

describe("startProgramDeadline", () => {
  it("expires once the time is used up", async () => {
    expect(await expiry(100)).toBeGreaterThanOrEqual(99);
  });

  it("does not count held time", async () => {
    const elapsed = await expiry(100, (deadline) => {
      const release = deadline.hold();
      setTimeout(release, 300);
    });
    expect(elapsed).toBeGreaterThanOrEqual(390);
  });

  it("stays held until every overlapping hold is released, each release counting once", async () => {
    const elapsed = await expiry(50, (deadline) => {
      const first = deadline.hold();
      const second = deadline.hold();
      first();
      first();
      setTimeout(second, 200);
    });
    expect(elapsed).toBeGreaterThanOrEqual(245);
  });

  it("never expires after stop", async () => {
    let expired = false;
    const deadline = startProgramDeadline(20, () => {
      expired = true;
    });
    deadline.stop();
    await sleep(100);
    expect(expired).toBe(false);
  });

  it("waits without end for Infinity", async () => {
    let expired = false;
    const deadline = startProgramDeadline(Number.POSITIVE_INFINITY, () => {
      expired = true;
    });
    await sleep(50);
    deadline.stop();
    expect(expired).toBe(false);
  });
});
