// Reads a `redis://` or `rediss://` address into what ioredis needs, and a form of it safe to show (no password).

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
 * Reads `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). Anything else is `{ problem }`, which
 * says what is wrong and never holds the password.
 */
export function readRedisAddress(connection: string): RedisAddress | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    // Not echoed: a value that is no URL may be anything, a password put in the wrong place included.
    return { problem: "it is not a URL" };
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    return { problem: `it must start with redis:// or rediss://, not ${url.protocol}//` };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") return { problem: "it names no host" };
  const port = url.port === "" ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, "");
  const db = path === "" ? undefined : Number(path);
  if (db !== undefined && !(Number.isInteger(db) && db >= 0)) {
    return { problem: `its path must be a database number, not /${path}` };
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

/** The ioredis options that say where and as whom to connect: host, port, AUTH, database and TLS. */
export function redisAddressOptions(address: RedisAddress) {
  return {
    host: address.host,
    port: address.port,
    ...(address.username === undefined ? {} : { username: address.username }),
    ...(address.password === undefined ? {} : { password: address.password }),
    ...(address.db === undefined ? {} : { db: address.db }),
    ...(address.tls ? { tls: { servername: address.host } } : {}),
  };
}
