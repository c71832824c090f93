// An executor's `connection`, read as a Redis address; a bad one is an `invalid-executor` error naming the executor.
import { type RedisAddress, readRedisAddress } from "../../redis/read-redis-address.js";
import { ExecutorError } from "../executor-error.js";

export type { RedisAddress } from "../../redis/read-redis-address.js";

/**
 * Reads `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). Throws `ExecutorError`
 * `invalid-executor` naming `executorId` for anything else.
 */
export function parseRedisAddress(connection: string, executorId: string): RedisAddress {
  const address = readRedisAddress(connection);
  if (!("problem" in address)) return address;
  throw new ExecutorError(
    "invalid-executor",
    `Executor ${executorId}: its connection is not a Redis address: ${address.problem}. Write redis://HOST:PORT (or rediss://HOST:PORT for TLS, with user:password@ for Redis AUTH).`,
  );
}
