// A small typed event emitter whose listeners can never break a call.
import { describeThrown, SessionError } from "../errors.js";
import type { AgentSessionEvents } from "../types.js";

type Listener<K extends keyof AgentSessionEvents> = (event: AgentSessionEvents[K]) => void;

export interface SessionEmitter {
  on<K extends keyof AgentSessionEvents>(event: K, listener: Listener<K>): () => void;
  emit<K extends keyof AgentSessionEvents>(event: K, payload: AgentSessionEvents[K]): void;
  has(event: keyof AgentSessionEvents): boolean;
}

/**
 * Listeners run in order; one that throws is reported as an `error` event (an `error` listener that throws is ignored).
 */
export function createSessionEmitter(): SessionEmitter {
  const listeners: { [K in keyof AgentSessionEvents]: Set<Listener<K>> } = {
    tool_execution_start: new Set(),
    tool_execution_update: new Set(),
    tool_execution_end: new Set(),
    tool_call_phase: new Set(),
    tool_log: new Set(),
    approval_requested: new Set(),
    approval_resolved: new Set(),
    flow_tainted: new Set(),
    error: new Set(),
  };
  const emitter: SessionEmitter = {
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      if (set === undefined) throw new TypeError(`Unknown session event: ${String(event)}`);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit(event, payload) {
      const set = listeners[event] as Set<Listener<typeof event>>;
      if (set.size === 0) return;
      for (const listener of set) {
        try {
          listener(payload);
        } catch (error) {
          if (event !== "error") {
            emitter.emit("error", {
              code: "listener-failed",
              error: new SessionError("listener-failed", `A ${event} listener threw: ${describeThrown(error)}`, {
                cause: error,
              }),
            });
          }
        }
      }
    },
    has: (event) => listeners[event].size > 0,
  };
  return emitter;
}
