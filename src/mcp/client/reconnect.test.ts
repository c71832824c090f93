import { describe, expect, it } from "vitest";
import { RECONNECT_MAX_DELAY_MS, reconnectDelayMs } from "./reconnect.js";

describe("reconnectDelayMs", () => {
  it("waits nothing before any failure", () => {
    expect(reconnectDelayMs(0)).toBe(0);
  });

  it("waits at most 1 s after the first failure, even when asked for more", () => {
    expect(reconnectDelayMs(1)).toBeLessThanOrEqual(1000);
    expect(reconnectDelayMs(1, { initialDelayMs: 5000 })).toBe(1000);
  });

  it("grows with consecutive failures and caps at 30 s", () => {
    const delays = Array.from({ length: 12 }, (_, index) => reconnectDelayMs(index + 1));
    for (let index = 1; index < delays.length; index++) {
      expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1] as number);
    }
    expect(delays[1]).toBeGreaterThan(delays[0] as number);
    expect(delays.at(-1)).toBe(RECONNECT_MAX_DELAY_MS);
    expect(reconnectDelayMs(10_000)).toBe(RECONNECT_MAX_DELAY_MS);
  });

  it("honours a custom cap", () => {
    expect(reconnectDelayMs(20, { initialDelayMs: 10, maxDelayMs: 200 })).toBe(200);
  });
});
