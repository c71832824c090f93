// The reconnect backoff: how long to wait before starting a new connection after consecutive failures.

/** The first delay after a failure: at most 1 s, as docs/mcp.md promises. */
const RECONNECT_INITIAL_DELAY_MS = 500;
/** The delay never grows past this. */
export const RECONNECT_MAX_DELAY_MS = 30_000;

/** How a connection spaces its reconnect attempts. */
export interface ReconnectBackoff {
  /** Delay after the first failure, in ms (at most 1000). Default 500. */
  readonly initialDelayMs?: number;
  /** Cap, in ms. Default 30 000. */
  readonly maxDelayMs?: number;
}

/**
 * The delay before the next connection attempt after `failures` consecutive failures: 0 for none,
 * `initialDelayMs` after the first, doubling with each further failure, capped at `maxDelayMs`.
 */
export function reconnectDelayMs(failures: number, backoff: ReconnectBackoff = {}): number {
  if (!(failures > 0)) return 0;
  const initial = Math.min(backoff.initialDelayMs ?? RECONNECT_INITIAL_DELAY_MS, 1000);
  const max = backoff.maxDelayMs ?? RECONNECT_MAX_DELAY_MS;
  const exponent = Math.min(failures - 1, 30);
  return Math.min(max, initial * 2 ** exponent);
}
