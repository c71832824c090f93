// The ioredis options of every connection an executor or worker opens: a session's fail once lost, a worker's
// reconnect.
import type { RedisOptions } from "ioredis";
import { redisAddressOptions } from "../../redis/read-redis-address.js";
import type { RedisAddress } from "./parse-redis-address.js";

/** How often a connection that lost Redis tries again. */
const RECONNECT_DELAY_MS = 500;

/**
 * Options for one connection to `address`. A `blocking` one (BullMQ's events stream, a worker) waits out a
 * disconnection (`maxRetriesPerRequest: null`, as BullMQ requires); any other gives a command one retry. With
 * `reconnect` (a worker's) it tries again every `RECONNECT_DELAY_MS`, forever; without (a session's), a lost
 * connection stays lost and the executor opens new ones for the next call, so nothing keeps retrying in the
 * background of a session.
 */
export function redisOptions(
  address: RedisAddress,
  options: { readonly blocking: boolean; readonly reconnect: boolean; readonly connectTimeoutMs?: number },
): RedisOptions {
  return {
    ...redisAddressOptions(address),
    // A session's connection gets one attempt, so it gets the whole of the executor's budget for it.
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    retryStrategy: () => (options.reconnect ? RECONNECT_DELAY_MS : null),
    // A command sent while connecting waits for the connection (BullMQ sends some before "ready"); once a session's
    // connection is lost it stays lost, and every command fails at once.
    ...(options.blocking ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1 }),
  };
}
