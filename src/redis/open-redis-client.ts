// openRedisClient: the one way toolwire's Redis stores connect: lazily, each command bounded, retried every 500 ms.
import { Redis } from "ioredis";
import { type RedisAddress, redisAddressOptions } from "./read-redis-address.js";

/** How long a store waits before it tries a lost connection again. */
const RECONNECT_DELAY_MS = 500;

/**
 * A client for `address` that connects on its first command; `timeoutMs` bounds connecting and every command (one
 * waiting for a connection too), each tried once. Its own connection errors are listened for (else ioredis prints
 * them): each failed command says why.
 */
export function openRedisClient(address: RedisAddress, timeoutMs: number): Redis {
  const client = new Redis({
    ...redisAddressOptions(address),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: () => RECONNECT_DELAY_MS,
  });
  client.on("error", () => undefined);
  return client;
}
