// The gateway's rate limit: a token bucket per principal, refilled continuously, dropped once it is full again.
import { McpServeError } from "../errors.js";

/** What one call's `take` decided: go ahead, or wait `retryAfterSeconds` (a whole number, at least 1). */
type RateLimitDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/** Per-principal call budgets. */
export interface RateLimiter {
  /**
   * Takes one call from `principal`'s bucket at time `now` (ms, default `Date.now()`). A refused call takes
   * nothing; `retryAfterSeconds` is when the bucket holds a whole call again. Never throws.
   */
  take(principal: string, now?: number): RateLimitDecision;
  /** How many buckets are held: only principals whose bucket is not full again. */
  readonly size: number;
}

/** How often, at most, `take` looks for full buckets to drop; a bucket refills from empty within a minute. */
const SWEEP_INTERVAL_MS = 60_000;

const ALLOWED: RateLimitDecision = { ok: true };

/**
 * A rate limiter allowing each principal `callsPerMinute` calls a minute: a bucket holding
 * `max(1, callsPerMinute)` calls (so a burst of that many is allowed), refilled at `callsPerMinute / 60`
 * calls a second. Memory stays bounded without a timer: at most once a minute, `take` drops the buckets
 * that have refilled (a full bucket is the same as none). Throws `McpServeError` (`invalid-serve-options`)
 * when `callsPerMinute` is not a positive finite number.
 */
export function createRateLimiter(options: { readonly callsPerMinute: number }): RateLimiter {
  const { callsPerMinute } = options;
  if (typeof callsPerMinute !== "number" || !Number.isFinite(callsPerMinute) || callsPerMinute <= 0) {
    throw new McpServeError(
      "invalid-serve-options",
      `rateLimit.callsPerMinute must be a positive number of calls a minute, not ${String(callsPerMinute)}`,
    );
  }
  const capacity = Math.max(1, callsPerMinute);
  const perMs = callsPerMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweptAt: number | undefined;

  /** The bucket's tokens at `now`, never above capacity; a clock that went back refills nothing. */
  const tokensAt = (bucket: { tokens: number; at: number }, now: number) =>
    Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * perMs);

  const sweep = (now: number) => {
    sweptAt = now;
    for (const [principal, bucket] of buckets) if (tokensAt(bucket, now) >= capacity) buckets.delete(principal);
  };

  return {
    take(principal, now = Date.now()) {
      if (sweptAt === undefined || now - sweptAt >= SWEEP_INTERVAL_MS || now < sweptAt) sweep(now);
      const bucket = buckets.get(principal);
      const tokens = bucket === undefined ? capacity : tokensAt(bucket, now);
      if (tokens >= 1) {
        buckets.set(principal, { tokens: tokens - 1, at: now });
        return ALLOWED;
      }
      if (bucket !== undefined) {
        bucket.tokens = tokens;
        bucket.at = now;
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
    },
    get size() {
      return buckets.size;
    },
  };
}
