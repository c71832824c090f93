// A store of served tasks in Redis, shared by toolwire serve replicas: records, leases of running ones, and control.
import type { Redis } from "ioredis";
import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { openRedisClient } from "./open-redis-client.js";
import { readRedisAddress } from "./read-redis-address.js";

/** Options of `createRedisTaskStore`. */
export interface RedisTaskStoreOptions {
  /** `redis://[user:password@]HOST:PORT[/db]`, or `rediss://` for TLS. */
  readonly connection: string;
  /** Put before every key and channel name. Default `toolwire:task:`. */
  readonly keyPrefix?: string;
  /**
   * How long a running task stays `working` in Redis once the process that runs it stopped renewing its lease (it
   * renews it every third of this). Default 30000 ms.
   */
  readonly leaseMs?: number;
  /** How long a task failed for a lapsed lease is kept. Default 3600000 ms (1 hour), as `serve.tasks.ttlMs`. */
  readonly ttlMs?: number;
  /** How long one command may wait for Redis, connecting included, before it fails. Default 2000 ms. */
  readonly timeoutMs?: number;
}

/** What the store reads of a task record (toolwire/mcp's `TaskRecord`); the rest is kept as it is. */
export interface RedisTaskRecord {
  readonly taskId: string;
  readonly status: string;
  readonly lastUpdatedAt: number;
  /** Set once the task ended: the key then expires at this time. Without it the task runs, under a lease. */
  readonly expiresAt?: number;
}

/** A cancel or answers for the process that runs a task (toolwire/mcp's `TaskControlMessage`). */
export type RedisTaskControlMessage =
  | { readonly kind: "cancel" }
  | { readonly kind: "update"; readonly responses: Readonly<Record<string, unknown>> };

/** A `TaskStore` for `serveMcp`'s `tasks.store`, in Redis (docs/mcp.md#tasks). */
export interface RedisTaskStore<R extends RedisTaskRecord = RedisTaskRecord> {
  /** The Redis address, without its password. */
  readonly address: string;
  create(record: R): Promise<void>;
  get(taskId: string): Promise<R | undefined>;
  put(record: R): Promise<void>;
  listen(taskId: string, onMessage: (message: RedisTaskControlMessage) => void): Promise<() => void>;
  send(taskId: string, message: RedisTaskControlMessage): Promise<boolean>;
  /** Stops renewing leases and closes the connections; later calls reject. */
  close(): Promise<void>;
}

/** The message of a task whose process stopped renewing its lease. */
export const LAPSED_TASK_MESSAGE =
  "the server running this task stopped before it ended (its lease in Redis lapsed): call the tool again";

const DEFAULT_KEY_PREFIX = "toolwire:task:";
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_TIMEOUT_MS = 2_000;

// KEYS: the task's hash, its lease. ARGV: the record, ms until it expires ("" while it runs), the lease's ms, and
// the ms a running task is kept unless renewed (the lease and then ttlMs: a lapsed task nobody asks about goes too).
// An ended task is never written again: its first end (or a lapse) stands.
const PUT_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'ended') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[1])
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'ended', '1')
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('DEL', KEYS[2])
else
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return 1`;

// KEYS as above. ARGV: the lease's ms, the running task's. Renews a running task's lease, never an ended one's.
const RENEW_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'ended') == 1 then return 0 end
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

// KEYS as above. ARGV: the failed record, ms until it expires. Only a running task whose lease is gone fails.
const LAPSE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'ended') == 1 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'ended', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Served tasks in Redis, for replicas of `toolwire serve` behind one address. A task is the hash
 * `<keyPrefix><taskId>`; an ended one expires at its `expiresAt` and is never written again. While a task runs, the
 * process running it holds the lease `<keyPrefix><taskId>:lease` and renews it; once the lease lapses (that process
 * stopped, or lost Redis for `leaseMs`), `get` answers the task `failed` ("the server running this task stopped
 * before it ended"), kept `ttlMs` (and Redis drops it `ttlMs` after the lapse when nobody asked). `send` publishes on `<keyPrefix><taskId>:control`, which the running process
 * `listen`s to: it resolves false when no process listened. Connects at the first command and reconnects on its own;
 * a command Redis does not answer within `timeoutMs` rejects. Throws a `TypeError` for a `connection` that is not a
 * Redis address or a bad number; messages never hold the password.
 */
export function createRedisTaskStore<R extends RedisTaskRecord = RedisTaskRecord>(
  options: RedisTaskStoreOptions,
): RedisTaskStore<R> {
  if (!isRecord(options) || typeof options.connection !== "string") {
    throw new TypeError("createRedisTaskStore needs { connection: 'redis://HOST:PORT' }");
  }
  const address = readRedisAddress(options.connection);
  if ("problem" in address) {
    throw new TypeError(
      `createRedisTaskStore: the connection is not a Redis address: ${address.problem}. Write redis://HOST:PORT (or rediss://HOST:PORT for TLS, with user:password@ for Redis AUTH).`,
    );
  }
  const leaseMs = checkedMs("leaseMs", options.leaseMs, DEFAULT_LEASE_MS, 3);
  const ttlMs = checkedMs("ttlMs", options.ttlMs, DEFAULT_TTL_MS, 0);
  const timeoutMs = checkedMs("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS, 1);
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof prefix !== "string") throw new TypeError("createRedisTaskStore: keyPrefix must be a string");
  const client = openRedisClient(address, timeoutMs);
  let subscriber: Redis | undefined;
  const listeners = new Map<string, (message: RedisTaskControlMessage) => void>();
  /** The tasks this process wrote as running: it renews their leases. */
  const running = new Set<string>();
  let closed = false;
  const keys = (taskId: string) => [`${prefix}${taskId}`, `${prefix}${taskId}:lease`] as const;
  const channel = (taskId: string) => `${prefix}${taskId}:control`;
  const failing = async <T>(what: string, command: () => Promise<T>): Promise<T> => {
    if (closed) throw new Error(`the task store at ${address.shown} is closed`);
    try {
      return await command();
    } catch (error) {
      throw new Error(`Redis at ${address.shown} did not ${what}: ${describeThrown(error)}`);
    }
  };
  const renew = setInterval(
    () => {
      for (const taskId of running) {
        client.eval(RENEW_SCRIPT, 2, ...keys(taskId), leaseMs, leaseMs + ttlMs).catch(() => undefined);
      }
    },
    Math.floor(leaseMs / 3),
  );
  renew.unref();

  const put = (record: R) =>
    failing("take the task", async () => {
      const [key, lease] = keys(record.taskId);
      const ended = typeof record.expiresAt === "number";
      const expiresInMs = ended ? String(Math.max(1, Math.ceil((record.expiresAt as number) - Date.now()))) : "";
      if (ended) running.delete(record.taskId);
      else running.add(record.taskId);
      const written = await client.eval(
        PUT_SCRIPT,
        2,
        key,
        lease,
        JSON.stringify(record),
        expiresInMs,
        leaseMs,
        leaseMs + ttlMs,
      );
      // Ended already (a lapse, or an earlier end): nothing to renew.
      if (written === 0) running.delete(record.taskId);
    });

  const read = async (key: string) => {
    const text = await client.hget(key, "record");
    return text === null ? undefined : (JSON.parse(text) as R);
  };

  return {
    address: address.shown,
    create: put,
    put,
    get: (taskId) =>
      failing("give the task", async () => {
        const [key, lease] = keys(taskId);
        const record = await read(key);
        if (record === undefined || typeof record.expiresAt === "number" || (await client.exists(lease)) === 1) {
          return record;
        }
        const now = Date.now();
        const { inputRequests: _asked, ...rest } = record as R & { inputRequests?: unknown };
        const failed = {
          ...rest,
          status: "failed",
          statusMessage: LAPSED_TASK_MESSAGE,
          error: { code: -32603, message: LAPSED_TASK_MESSAGE },
          lastUpdatedAt: now,
          expiresAt: now + ttlMs,
        };
        await client.eval(LAPSE_SCRIPT, 2, key, lease, JSON.stringify(failed), Math.max(1, ttlMs));
        // The lapse, or whatever got there first (the running process's own end).
        return read(key);
      }),
    listen: (taskId, onMessage) =>
      failing("listen for the task", async () => {
        if (subscriber === undefined) {
          subscriber = client.duplicate();
          subscriber.on("error", () => undefined);
          subscriber.on("message", (from: string, text: string) => {
            const message = parseControl(text);
            if (message !== undefined) listeners.get(from)?.(message);
          });
        }
        const name = channel(taskId);
        listeners.set(name, onMessage);
        await subscriber.subscribe(name);
        return () => {
          listeners.delete(name);
          subscriber?.unsubscribe(name).catch(() => undefined);
        };
      }),
    send: (taskId, message) =>
      failing("pass on the message", async () => (await client.publish(channel(taskId), JSON.stringify(message))) > 0),
    async close() {
      closed = true;
      clearInterval(renew);
      running.clear();
      listeners.clear();
      await Promise.all(
        [client, subscriber].map((connection) => (connection === undefined ? undefined : quit(connection))),
      );
    },
  };
}

function parseControl(text: string): RedisTaskControlMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (isRecord(value) && value.kind === "cancel") return { kind: "cancel" };
  if (isRecord(value) && value.kind === "update" && isRecord(value.responses)) {
    return { kind: "update", responses: value.responses };
  }
  return undefined;
}

async function quit(connection: Redis): Promise<void> {
  if (connection.status === "wait" || connection.status === "end") {
    connection.disconnect();
    return;
  }
  await connection.quit().catch(() => connection.disconnect());
}

function checkedMs(name: string, value: number | undefined, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= least && value <= 2_147_483_647)) {
    throw new TypeError(
      `createRedisTaskStore: ${name} must be a whole number of milliseconds, ${least} or more, got ${String(value)}`,
    );
  }
  return value;
}
