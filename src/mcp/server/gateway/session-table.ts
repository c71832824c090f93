// The gateway's MCP sessions (2025-era clients keep one): who owns each, caps on how many, and idle expiry.
import { McpServeError } from "../errors.js";

/** Options of `createSessionTable`. */
export interface SessionTableOptions<T> {
  /** A session no `get` has touched for this long expires (default 1,800,000: 30 minutes). */
  readonly idleTimeoutMs?: number;
  /** The most sessions (open or reserved) one principal may hold; no cap when absent. */
  readonly maxPerPrincipal?: number;
  /** The most sessions (open or reserved) in all; no cap when absent. */
  readonly max?: number;
  /** Releases a session that left the table. Errors, thrown or rejected, are swallowed. */
  readonly dispose: (value: T, id: string, reason: "idle" | "deleted" | "closed") => void | Promise<void>;
  /** The clock, in ms (default `performance.now()`, which never goes back). */
  readonly now?: () => number;
}

/**
 * Whether a principal may open a session now; if not, which cap it hit and when to try again (whole seconds, at least
 * 1).
 */
type SessionOpen =
  | { readonly ok: true }
  | { readonly ok: false; readonly limit: "principal" | "all"; readonly retryAfterSeconds: number };

/** What `get` found under an id: the value, nothing, or a session another principal owns. */
type SessionLookup<T> =
  | { readonly kind: "found"; readonly value: T }
  | { readonly kind: "not-found" }
  | { readonly kind: "forbidden" };

/** The open sessions, keyed by session id, each owned by one principal. */
export interface SessionTable<T> {
  /**
   * Holds a place for a session of `principal` before the work of creating it, counting the places
   * already held (open and reserved) against `maxPerPrincipal` and `max`; at a cap it first expires idle
   * sessions. Complete the reservation with `add`, or drop it with `cancel`. Refused after `close`.
   */
  reserve(principal: string): SessionOpen;
  /**
   * Turns a reservation of `principal` into the session `id`. After `close`, disposes `value` at once
   * ("closed"). Throws when `principal` holds no reservation or `id` is taken (both caller bugs).
   */
  add(principal: string, id: string, value: T): void;
  /** Drops one reservation of `principal` (creating the session failed); nothing if it holds none. */
  cancel(principal: string): void;
  /**
   * The session `id` if `principal` owns it, which counts as use (its idle time starts over);
   * `forbidden` if another principal does; `not-found` if there is none or it has expired (it is disposed then).
   */
  get(id: string, principal: string): SessionLookup<T>;
  /** Removes the session `id` and disposes it ("deleted"); false if there was none. It does not check the owner. */
  delete(id: string): boolean;
  /** How many open sessions `principal` owns (reservations not counted). */
  countFor(principal: string): number;
  /** How many sessions are open (reservations not counted). */
  readonly size: number;
  /** Expires the sessions idle for `idleTimeoutMs` or longer now (a timer does it too). */
  sweep(): void;
  /** Stops the timer, disposes every session ("closed") and waits for all disposals still running. */
  close(): Promise<void>;
}

/** The default idle timeout: 30 minutes (docs/serve.md). */
export const DEFAULT_IDLE_TIMEOUT_MS = 1_800_000;
/** The gateway's cap on one principal's open sessions when its options name none. */
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 100;
/** The gateway's cap on open sessions in all when its options name none. */
export const DEFAULT_MAX_SESSIONS = 1_000;

const OPEN: SessionOpen = { ok: true };

interface Session<T> {
  readonly principal: string;
  readonly value: T;
  usedAt: number;
}

interface Owner {
  /** The principal's session ids, least recently used first. */
  readonly ids: Set<string>;
  reserved: number;
}

/**
 * A session table. Sessions sit in maps kept in order of last use, so a sweep stops at the first
 * session still in use, and the soonest expiry (for `retryAfterSeconds`) is the first entry. A timer
 * runs only while sessions are open, every `min(idleTimeoutMs / 4, 60 s)`, and is `unref`ed, so it
 * never keeps the process up. Throws `McpServeError` (`invalid-serve-options`) for a timeout that is
 * not a positive finite number or a cap that is not a positive whole number.
 */
export function createSessionTable<T>(options: SessionTableOptions<T>): SessionTable<T> {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  checkOptions(options, idleTimeoutMs);
  const { maxPerPrincipal, max, dispose } = options;
  const now = options.now ?? (() => performance.now());
  const sweepEveryMs = Math.max(1, Math.min(idleTimeoutMs / 4, 60_000));

  const sessions = new Map<string, Session<T>>();
  const owners = new Map<string, Owner>();
  const disposing = new Set<Promise<unknown>>();
  let reservedInAll = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const ownerOf = (principal: string) => {
    let owner = owners.get(principal);
    if (owner === undefined) {
      owner = { ids: new Set(), reserved: 0 };
      owners.set(principal, owner);
    }
    return owner;
  };

  const forgetIfEmpty = (principal: string, owner: Owner) => {
    if (owner.ids.size === 0 && owner.reserved === 0) owners.delete(principal);
  };

  const runDispose = (value: T, id: string, reason: "idle" | "deleted" | "closed") => {
    try {
      const result = dispose(value, id, reason);
      if (result !== undefined && typeof (result as Promise<void>).then === "function") {
        const settled = Promise.resolve(result).then(
          () => undefined,
          () => undefined,
        );
        disposing.add(settled);
        void settled.then(() => disposing.delete(settled));
      }
    } catch {
      // A dispose that throws must not stop the others, nor the request that triggered it.
    }
  };

  const remove = (id: string, session: Session<T>, reason: "idle" | "deleted" | "closed") => {
    sessions.delete(id);
    const owner = owners.get(session.principal);
    if (owner !== undefined) {
      owner.ids.delete(id);
      forgetIfEmpty(session.principal, owner);
    }
    if (sessions.size === 0) stopTimer();
    runDispose(session.value, id, reason);
  };

  const isIdle = (session: Session<T>, at: number) => at - session.usedAt >= idleTimeoutMs;

  const sweep = () => {
    const at = now();
    for (const [id, session] of sessions) {
      // In order of last use: the first one still in use ends the sweep.
      if (!isIdle(session, at)) break;
      remove(id, session, "idle");
    }
  };

  const startTimer = () => {
    if (timer !== undefined || closed) return;
    timer = setInterval(sweep, sweepEveryMs);
    timer.unref();
  };

  const stopTimer = () => {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
  };

  /** Seconds until the first of these sessions (least recently used first) expires; 1 when there is none. */
  const retryAfter = (first: Session<T> | undefined): number => {
    if (first === undefined) return 1;
    return Math.max(1, Math.ceil((first.usedAt + idleTimeoutMs - now()) / 1000));
  };

  const heldBy = (principal: string) => {
    const owner = owners.get(principal);
    return owner === undefined ? 0 : owner.ids.size + owner.reserved;
  };

  const overCap = (principal: string): "principal" | "all" | undefined => {
    if (maxPerPrincipal !== undefined && heldBy(principal) >= maxPerPrincipal) return "principal";
    if (max !== undefined && sessions.size + reservedInAll >= max) return "all";
    return undefined;
  };

  return {
    reserve(principal) {
      if (closed) return { ok: false, limit: "all", retryAfterSeconds: 1 };
      if (overCap(principal) !== undefined) sweep();
      const limit = overCap(principal);
      if (limit === "principal") {
        const first = owners.get(principal)?.ids.values().next().value;
        return {
          ok: false,
          limit,
          retryAfterSeconds: retryAfter(first === undefined ? undefined : sessions.get(first)),
        };
      }
      if (limit === "all") return { ok: false, limit, retryAfterSeconds: retryAfter(sessions.values().next().value) };
      ownerOf(principal).reserved++;
      reservedInAll++;
      return OPEN;
    },

    add(principal, id, value) {
      const owner = owners.get(principal);
      if (owner === undefined || owner.reserved === 0) {
        throw new Error(`session table: add(${JSON.stringify(principal)}, …) without a reserve() for that principal`);
      }
      if (sessions.has(id)) throw new Error(`session table: the session id ${JSON.stringify(id)} is already taken`);
      owner.reserved--;
      reservedInAll--;
      if (closed) {
        forgetIfEmpty(principal, owner);
        runDispose(value, id, "closed");
        return;
      }
      owner.ids.add(id);
      sessions.set(id, { principal, value, usedAt: now() });
      startTimer();
    },

    cancel(principal) {
      const owner = owners.get(principal);
      if (owner === undefined || owner.reserved === 0) return;
      owner.reserved--;
      reservedInAll--;
      forgetIfEmpty(principal, owner);
    },

    get(id, principal) {
      const session = sessions.get(id);
      if (session === undefined) return { kind: "not-found" };
      const at = now();
      if (isIdle(session, at)) {
        remove(id, session, "idle");
        return { kind: "not-found" };
      }
      if (session.principal !== principal) return { kind: "forbidden" };
      session.usedAt = at;
      // Move to the end: the maps stay in order of last use.
      sessions.delete(id);
      sessions.set(id, session);
      const ids = owners.get(principal)!.ids;
      ids.delete(id);
      ids.add(id);
      return { kind: "found", value: session.value };
    },

    delete(id) {
      const session = sessions.get(id);
      if (session === undefined) return false;
      remove(id, session, "deleted");
      return true;
    },

    countFor(principal) {
      return owners.get(principal)?.ids.size ?? 0;
    },

    get size() {
      return sessions.size;
    },

    sweep,

    async close() {
      closed = true;
      stopTimer();
      for (const [id, session] of sessions) remove(id, session, "closed");
      while (disposing.size > 0) await Promise.all(disposing);
    },
  };
}

function checkOptions<T>(options: SessionTableOptions<T>, idleTimeoutMs: number): void {
  if (typeof idleTimeoutMs !== "number" || !Number.isFinite(idleTimeoutMs) || idleTimeoutMs <= 0) {
    throw new McpServeError(
      "invalid-serve-options",
      `sessions.idleTimeoutMs must be a positive number of milliseconds, not ${String(idleTimeoutMs)}`,
    );
  }
  for (const name of ["maxPerPrincipal", "max"] as const) {
    const cap = options[name];
    if (cap !== undefined && (!Number.isInteger(cap) || cap < 1)) {
      throw new McpServeError(
        "invalid-serve-options",
        `sessions.${name} must be a whole number of sessions, 1 or more, not ${String(cap)}`,
      );
    }
  }
  if (typeof options.dispose !== "function") {
    throw new McpServeError("invalid-serve-options", "the session table needs a dispose function");
  }
}
