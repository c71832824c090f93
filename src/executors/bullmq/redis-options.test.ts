// The ioredis options of an executor's connections: a session's one connect attempt gets the executor's whole budget.
import { describe, expect, it } from "vitest";
import { parseRedisAddress } from "./parse-redis-address.js";
import { redisOptions } from "./redis-options.js";

const address = parseRedisAddress("redis://127.0.0.1:6379", "lab");

describe("redisOptions", () => {
  it("sets ioredis' connectTimeout to the executor's connectTimeoutMs, not a fixed 2 s", () => {
    for (const blocking of [false, true]) {
      expect(redisOptions(address, { blocking, reconnect: false, connectTimeoutMs: 10_000 }).connectTimeout).toBe(
        10_000,
      );
    }
  });
});
