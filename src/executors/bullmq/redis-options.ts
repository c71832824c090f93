// The ioredis options of every connection an executor or worker opens: fail fast when Redis is away, reconnect when it is back.
import type { RedisOptions } from "ioredis";
import type { RedisAddress } from "./parse-redis-address.js";

/** How often a connection that lost Redis tries again. */
export const RECONNECT_DELAY_MS = 500;

/**
 * Options for one connection to `address`. A `blocking` one (BullMQ's events stream, a worker) waits out a
 * disconnection (`maxRetriesPerRequest: null`, as BullMQ requires); any other fails its commands at once while
 * Redis is away (no offline queue), so a call ends with an error instead of hanging. Both reconnect every
 * `RECONNECT_DELAY_MS`, forever.
 */
export function redisOptions(address: RedisAddress, options: { readonly blocking: boolean }): RedisOptions {
  return {
    host: address.host,
    port: address.port,
    ...(address.username === undefined ? {} : { username: address.username }),
    ...(address.password === undefined ? {} : { password: address.password }),
    ...(address.db === undefined ? {} : { db: address.db }),
    ...(address.tls ? { tls: { servername: address.host } } : {}),
    connectTimeout: 2_000,
    retryStrategy: () => RECONNECT_DELAY_MS,
    ...(options.blocking ? { maxRetriesPerRequest: null } : { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
  };
}
