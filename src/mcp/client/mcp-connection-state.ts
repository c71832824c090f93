// The bridge's hold on one server as a state machine: idle → connecting → connected ⇄ lost → reconnecting → … → closed.
import type { McpConnectionError } from "./errors.js";
import { type ReconnectBackoff, reconnectDelayMs } from "./reconnect.js";

/**
 * Lost connections and failed connects since the last call that succeeded, and when the latest was
 * (on the `performance.now()` clock). Connected states keep the count: a server that dies on every
 * call backs off further each time.
 */
interface McpFailureCount {
  readonly failures: number;
  readonly lastFailureAt: number;
}

/**
 * Where a bridged server's connection stands. `L` is one open connection (its client and transport);
 * `attempt` settles when a connect (open, then list the tools) ends.
 */
export type McpConnectionState<L> =
  /** Nothing tried yet. */
  | { readonly kind: "idle" }
  /** The first connection is being made; its failure is `connectMcpServer`'s. */
  | { readonly kind: "connecting"; readonly attempt: Promise<L> }
  | ({ readonly kind: "connected"; readonly live: L } & McpFailureCount)
  /** No connection: it was lost, or the latest reconnect failed. The next call reconnects. */
  | ({ readonly kind: "lost"; readonly reason: McpConnectionError } & McpFailureCount)
  /** A new connection is being made after the backoff delay, for the calls waiting on `attempt`. */
  | ({ readonly kind: "reconnecting"; readonly attempt: Promise<L> } & McpFailureCount)
  /** `close()` was called: final, every later event leaves it so. */
  | { readonly kind: "closed" };

/** What happens to a connection; `at` is a `performance.now()` time. */
export type McpConnectionEvent<L> =
  /** A connect started (from idle: the first one; from lost: a reconnect). */
  | { readonly kind: "connect"; readonly attempt: Promise<L> }
  /** The connect opened `live` and listed its tools: it is the connection now. */
  | { readonly kind: "connected"; readonly live: L }
  | { readonly kind: "connect-failed"; readonly reason: McpConnectionError; readonly at: number }
  /** `live` closed or broke; an event about a connection that is no longer the current one changes nothing. */
  | { readonly kind: "lost"; readonly live: L; readonly reason: McpConnectionError; readonly at: number }
  /** A call got its answer: the server works, the backoff starts over. */
  | { readonly kind: "call-succeeded" }
  | { readonly kind: "close" };

/**
 * The state after `event`: all of the machine's transitions. An event the state does not expect (a
 * connect that completes after `close()`, a loss of a connection already replaced) leaves it as it is;
 * the caller reads the new state to see whether its event took effect.
 */
export function nextMcpConnectionState<L>(
  state: McpConnectionState<L>,
  event: McpConnectionEvent<L>,
): McpConnectionState<L> {
  if (state.kind === "closed") return state;
  switch (event.kind) {
    case "close":
      return { kind: "closed" };
    case "connect":
      if (state.kind === "idle") return { kind: "connecting", attempt: event.attempt };
      if (state.kind === "lost") return { ...failuresOf(state), kind: "reconnecting", attempt: event.attempt };
      return state;
    case "connected":
      if (state.kind !== "connecting" && state.kind !== "reconnecting") return state;
      return { ...failuresOf(state), kind: "connected", live: event.live };
    case "connect-failed":
      if (state.kind !== "connecting" && state.kind !== "reconnecting") return state;
      return { kind: "lost", reason: event.reason, failures: failuresOf(state).failures + 1, lastFailureAt: event.at };
    case "lost":
      if (state.kind !== "connected" || state.live !== event.live) return state;
      return { kind: "lost", reason: event.reason, failures: state.failures + 1, lastFailureAt: event.at };
    case "call-succeeded":
      // On the hot path: the same object when there is nothing to reset.
      if (state.kind === "idle" || state.kind === "connecting" || state.failures === 0) return state;
      return { ...state, failures: 0 };
  }
}

/**
 * How long a reconnect from `state` waits first, in ms: the backoff delay for its failures (see
 * `reconnectDelayMs`) less the time since the latest failure; 0 when it has none.
 */
export function reconnectWaitMs<L>(state: McpConnectionState<L>, now: number, backoff?: ReconnectBackoff): number {
  if (state.kind !== "lost") return 0;
  return Math.max(0, state.lastFailureAt + reconnectDelayMs(state.failures, backoff) - now);
}

function failuresOf<L>(state: McpConnectionState<L>): McpFailureCount {
  return "failures" in state
    ? { failures: state.failures, lastFailureAt: state.lastFailureAt }
    : { failures: 0, lastFailureAt: 0 };
}
