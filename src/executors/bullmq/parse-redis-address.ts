// Reads a `redis://` or `rediss://` address into ioredis options, and a form of it safe to show (no password).
import { ExecutorError } from "../executor-error.js";

/** A Redis address, read: what ioredis needs, and `shown`, the address without its password, for messages. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  /** `rediss://`: TLS, with the host name checked against the server's certificate. */
  readonly tls: boolean;
  /** Such as `redis://10.0.0.5:6379`: never the password. */
  readonly shown: string;
}

/**
 * Reads `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). Throws `ExecutorError`
 * `invalid-executor` naming `executorId` for anything else.
 */
export function parseRedisAddress(connection: string, executorId: string): RedisAddress {
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    throw invalid(executorId, `"${connection.replace(/:[^:@/]*@/, ":***@")}" is not a URL`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw invalid(executorId, `it must start with redis:// or rediss://, not ${url.protocol}//`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw invalid(executorId, "it names no host");
  const port = url.port === "" ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, "");
  const db = path === "" ? undefined : Number(path);
  if (db !== undefined && !(Number.isInteger(db) && db >= 0)) {
    throw invalid(executorId, `its path must be a database number, not /${path}`);
  }
  const tls = url.protocol === "rediss:";
  return {
    host,
    port,
    ...(url.username === "" ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === "" ? {} : { password: decodeURIComponent(url.password) }),
    ...(db === undefined ? {} : { db }),
    tls,
    shown: `${url.protocol}//${url.host}${db === undefined ? "" : `/${db}`}`,
  };
}

function invalid(executorId: string, why: string): ExecutorError {
  return new ExecutorError(
    "invalid-executor",
    `Executor ${executorId}: its connection is not a Redis address: ${why}. Write redis://HOST:PORT (or rediss://HOST:PORT for TLS, with user:password@ for Redis AUTH).`,
  );
}
