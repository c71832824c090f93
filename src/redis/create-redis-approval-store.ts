// An approval store in Redis, shared by every process that uses it: `SET NX` with the approval's expiry.
import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { ApprovalStore } from "../core/types.js";
import { openRedisClient } from "./open-redis-client.js";
import { readRedisAddress } from "./read-redis-address.js";

/** Options of `createRedisApprovalStore`. */
export interface RedisApprovalStoreOptions {
  /** `redis://[user:password@]HOST:PORT[/db]`, or `rediss://` for TLS. */
  readonly connection: string;
  /**
   * How long one claim may wait for Redis, connecting included, before it fails (and its call is declined). Default
   * 2000 ms.
   */
  readonly timeoutMs?: number;
}

/** An approval store in Redis, and `close` to let go of its connection. */
export interface RedisApprovalStore extends ApprovalStore {
  /** The Redis address, without its password. */
  readonly address: string;
  /** Closes the connection; later claims reject. */
  close(): Promise<void>;
}

/** Each claimed id is the key `toolwire:approval:<id>`. */
export const APPROVAL_KEY_PREFIX = "toolwire:approval:";

/** How much longer than its approval a claimed id is kept: room for replicas whose clocks differ by up to this much. */
export const APPROVAL_CLOCK_MARGIN_MS = 60_000;

const DEFAULT_TIMEOUT_MS = 2_000;

/**
 * An approval store in Redis: a claim is `SET toolwire:approval:<id> 1 NX PX <ms until expiresAt, plus 60 s>`
 * (the minute is for replicas whose clocks differ), true only for the process whose `SET` made the key. Every process
 * and every restart that uses the same Redis sees the same claims, until Redis itself loses them (a restart of a
 * Redis without persistence, a failover to a replica that had not received the key). An id claimed without
 * `expiresAt` is kept for good. Connects at the first claim and reconnects on its own after a loss; a claim
 * that Redis does not answer within `timeoutMs` rejects (the call is declined, never run). Throws a
 * `TypeError` for a `connection` that is not a Redis address or a bad `timeoutMs`; the message never holds
 * the password.
 */
export function createRedisApprovalStore(options: RedisApprovalStoreOptions): RedisApprovalStore {
  if (!isRecord(options) || typeof options.connection !== "string") {
    throw new TypeError("createRedisApprovalStore needs { connection: 'redis://HOST:PORT' }");
  }
  const address = readRedisAddress(options.connection);
  if ("problem" in address) {
    throw new TypeError(
      `createRedisApprovalStore: the connection is not a Redis address: ${address.problem}. Write redis://HOST:PORT (or rediss://HOST:PORT for TLS, with user:password@ for Redis AUTH).`,
    );
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647)) {
    throw new TypeError(
      `createRedisApprovalStore: timeoutMs must be a whole number of milliseconds, 1 or more, got ${String(timeoutMs)}`,
    );
  }
  const client = openRedisClient(address, timeoutMs);
  let closed = false;
  return {
    address: address.shown,
    async claim(approvalId, expiresAt) {
      if (closed) throw new Error(`the approval store at ${address.shown} is closed`);
      const key = `${APPROVAL_KEY_PREFIX}${approvalId}`;
      try {
        const answer =
          typeof expiresAt === "number" && Number.isFinite(expiresAt)
            ? await client.set(
                key,
                "1",
                "PX",
                Math.max(1, Math.ceil(expiresAt - Date.now())) + APPROVAL_CLOCK_MARGIN_MS,
                "NX",
              )
            : await client.set(key, "1", "NX");
        return answer === "OK";
      } catch (error) {
        throw new Error(`Redis at ${address.shown} did not take the claim: ${describeThrown(error)}`);
      }
    },
    async close() {
      closed = true;
      if (client.status === "wait" || client.status === "end") {
        client.disconnect();
        return;
      }
      await client.quit().catch(() => client.disconnect());
    },
  };
}
