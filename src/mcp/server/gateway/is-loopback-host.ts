// isLoopbackHost: whether a bind address reaches this machine only, where serving without credentials is allowed.

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether `host` (a bind address as `--host` or `serveMcp`'s `host` take it) is a loopback one. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host);
}
