// The Redis approval store against a real redis-server on loopback: once across stores, kept until expiry, Redis away.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDIS_RUNS, type RedisServer, startRedis } from "../../test/support/redis.js";
import { createAgentSession } from "../core/dispatch/session.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import {
  APPROVAL_CLOCK_MARGIN_MS,
  APPROVAL_KEY_PREFIX,
  createRedisApprovalStore,
  type RedisApprovalStore,
} from "./create-redis-approval-store.js";

if (!REDIS_RUNS) console.warn("skipping the Redis approval store tests: /usr/bin/redis-server is not installed");

describe("createRedisApprovalStore, without Redis", () => {
  it("refuses a connection that is not a Redis address, without showing its password", () => {
    for (const connection of [
      "http://user:hunter22@example.com",
      "redis://:hunter22@",
      "redis://:hunter22@host/x",
      "hunter22",
      "not a url :hunter22@y",
    ]) {
      let thrown: unknown;
      try {
        createRedisApprovalStore({ connection });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(/not a Redis address/);
      expect((thrown as Error).message).not.toContain("hunter22");
    }
    expect(() => createRedisApprovalStore({ connection: "redis://127.0.0.1:6379", timeoutMs: 0 })).toThrow(TypeError);
  });
});

describe.runIf(REDIS_RUNS)("createRedisApprovalStore", () => {
  let redis: RedisServer;
  let probe: Redis;
  const stores: RedisApprovalStore[] = [];
  const open = () => {
    const store = createRedisApprovalStore({ connection: redis.url, timeoutMs: 1_000 });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    redis = await startRedis();
    probe = new Redis(redis.port, "127.0.0.1");
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    probe?.disconnect();
    await redis?.stop();
  });

  it("claims an id once across stores, and across a store closed and opened again (a restart)", async () => {
    const [first, second] = [open(), open()];
    const expiresAt = Date.now() + 60_000;
    expect(await first.claim("shared-1", expiresAt)).toBe(true);
    expect(await second.claim("shared-1", expiresAt)).toBe(false);
    expect(await first.claim("shared-1", expiresAt)).toBe(false);
    await first.close();
    expect(await open().claim("shared-1", expiresAt)).toBe(false);
    await expect(first.claim("shared-2", expiresAt)).rejects.toThrow(/closed/);
  });

  it("keeps a claimed id until its approval expires, plus the clock margin, and no longer", async () => {
    const store = open();
    const expiresAt = Date.now() + 30_000;
    expect(await store.claim("ttl-1", expiresAt)).toBe(true);
    const left = await probe.pttl(`${APPROVAL_KEY_PREFIX}ttl-1`);
    expect(left).toBeGreaterThan(30_000 + APPROVAL_CLOCK_MARGIN_MS - 10_000);
    expect(left).toBeLessThanOrEqual(30_000 + APPROVAL_CLOCK_MARGIN_MS);
    // An approval already expired is kept for the margin only.
    expect(await store.claim("ttl-2", Date.now() - 5_000)).toBe(true);
    expect(await probe.pttl(`${APPROVAL_KEY_PREFIX}ttl-2`)).toBeLessThanOrEqual(APPROVAL_CLOCK_MARGIN_MS + 1);
    // Without an expiry: kept for good.
    expect(await store.claim("ttl-3")).toBe(true);
    expect(await probe.pttl(`${APPROVAL_KEY_PREFIX}ttl-3`)).toBe(-1);
  });

  it("Redis away: the claim rejects in bounded time, the call is declined and never runs; back, it works again", async () => {
    let runs = 0;
    const store = open();
    const session = createAgentSession({
      registry: createToolRegistry({
        custom: [
          defineTool({
            name: "deploy",
            description: "needs approval",
            inputSchema: { type: "object" },
            execute: () => {
              runs++;
              return "deployed";
            },
          }),
        ],
      }),
      approvals: { require: ["deploy"], store, approver: () => ({ approve: true }) },
    });
    expect(await session.dispatch({ id: "1", name: "deploy", input: {} })).toMatchObject({
      content: [{ type: "text", text: "deployed" }],
    });
    await redis.stop();
    const startedAt = Date.now();
    const refused = await session.dispatch({ id: "2", name: "deploy", input: {} });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(refused.is_error).toBe(true);
    expect(refused.content).toEqual([
      {
        type: "text",
        text: expect.stringMatching(
          /^Tool call declined: the approval store failed: Redis at redis:\/\/127\.0\.0\.1:\d+ did not take the claim: /,
        ),
      },
    ]);
    expect(runs).toBe(1);
    redis = await startRedis({ port: redis.port });
    probe.disconnect();
    probe = new Redis(redis.port, "127.0.0.1");
    // The store reconnects on its own; the first claim after the return may still find it reconnecting.
    let back = false;
    for (let attempt = 0; attempt < 20 && !back; attempt++) {
      back = await Promise.resolve(store.claim(`back-${attempt}`, Date.now() + 60_000)).catch(() => false);
      if (!back) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(back).toBe(true);
    session.close();
  }, 30_000);
});
