import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_POLL_INTERVAL_MS,
  MAX_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  pollDelayMs,
} from "./follow-mcp-task.js";

describe("pollDelayMs", () => {
  it("keeps the server's poll interval between the floor and the ceiling", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (asked) => {
        const delay = pollDelayMs({ pollIntervalMs: asked });
        expect(delay).toBeGreaterThanOrEqual(MIN_POLL_INTERVAL_MS);
        expect(delay).toBeLessThanOrEqual(MAX_POLL_INTERVAL_MS);
        if (Number.isFinite(asked) && asked >= MIN_POLL_INTERVAL_MS && asked <= MAX_POLL_INTERVAL_MS) {
          expect(delay).toBe(asked);
        }
      }),
    );
  });

  it("waits the default when the server names no usable interval", () => {
    for (const pollIntervalMs of [undefined, null, "500", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(pollDelayMs({ pollIntervalMs })).toBe(DEFAULT_POLL_INTERVAL_MS);
    }
  });
});
