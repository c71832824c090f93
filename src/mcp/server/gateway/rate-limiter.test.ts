import { describe, expect, it } from "vitest";
import { McpServeError } from "../errors.js";
import { createRateLimiter } from "./rate-limiter.js";

const T0 = 1_000_000;

describe("createRateLimiter", () => {
  it("allows a burst of callsPerMinute calls, then refuses with the seconds until one call has refilled", () => {
    const limiter = createRateLimiter({ callsPerMinute: 3 });
    expect([1, 2, 3].map(() => limiter.take("alice", T0).ok)).toEqual([true, true, true]);
    // 3 a minute: one call every 20 s.
    expect(limiter.take("alice", T0)).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(limiter.take("alice", T0 + 15_500)).toEqual({ ok: false, retryAfterSeconds: 5 });
    expect(limiter.take("alice", T0 + 20_000)).toEqual({ ok: true });
    expect(limiter.take("alice", T0 + 20_000).ok).toBe(false);
  });

  it("refills continuously, not in whole-minute windows", () => {
    const limiter = createRateLimiter({ callsPerMinute: 60 });
    for (let i = 0; i < 60; i++) expect(limiter.take("alice", T0).ok).toBe(true);
    expect(limiter.take("alice", T0 + 999)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take("alice", T0 + 1_000).ok).toBe(true);
    // Ten seconds later, ten calls have come back (the refused call above took nothing).
    const later = Array.from({ length: 11 }, () => limiter.take("alice", T0 + 11_000).ok);
    expect(later.filter(Boolean)).toHaveLength(10);
  });

  it("keeps one bucket per principal", () => {
    const limiter = createRateLimiter({ callsPerMinute: 1 });
    expect(limiter.take("alice", T0).ok).toBe(true);
    expect(limiter.take("alice", T0).ok).toBe(false);
    expect(limiter.take("bob", T0).ok).toBe(true);
    expect(limiter.take("alice", T0)).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  it("with fewer than one call a minute, allows one call and then one per 60 / callsPerMinute seconds", () => {
    const limiter = createRateLimiter({ callsPerMinute: 0.5 });
    expect(limiter.take("alice", T0).ok).toBe(true);
    expect(limiter.take("alice", T0)).toEqual({ ok: false, retryAfterSeconds: 120 });
    expect(limiter.take("alice", T0 + 120_000).ok).toBe(true);
  });

  it("drops the buckets that have refilled, so memory follows the principals active in the last minutes", () => {
    const limiter = createRateLimiter({ callsPerMinute: 10 });
    for (let i = 0; i < 5_000; i++) limiter.take(`principal-${i}`, T0);
    expect(limiter.size).toBe(5_000);
    // One minute on, every bucket has refilled; the next take sweeps them and keeps only its own.
    limiter.take("alice", T0 + 60_000);
    expect(limiter.size).toBe(1);
  });

  it("keeps a bucket that has not refilled yet across a sweep, so a sweep never hands out extra calls", () => {
    const limiter = createRateLimiter({ callsPerMinute: 2 });
    limiter.take("carol", T0);
    limiter.take("alice", T0 + 30_000);
    limiter.take("alice", T0 + 30_000);
    // This take sweeps: carol's bucket is full again and goes, alice's holds one call of two and stays.
    limiter.take("bob", T0 + 60_000);
    expect(limiter.size).toBe(2);
    expect(limiter.take("alice", T0 + 60_000).ok).toBe(true);
    expect(limiter.take("alice", T0 + 60_000).ok).toBe(false);
  });

  it("refills nothing when the clock goes back", () => {
    const limiter = createRateLimiter({ callsPerMinute: 1 });
    expect(limiter.take("alice", T0).ok).toBe(true);
    expect(limiter.take("alice", T0 - 3_600_000).ok).toBe(false);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, "10" as unknown as number])(
    "refuses callsPerMinute %s with invalid-serve-options",
    (callsPerMinute) => {
      let thrown: unknown;
      try {
        createRateLimiter({ callsPerMinute });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(McpServeError);
      expect((thrown as McpServeError).code).toBe("invalid-serve-options");
      expect((thrown as McpServeError).message).toContain("rateLimit.callsPerMinute");
    },
  );
});
