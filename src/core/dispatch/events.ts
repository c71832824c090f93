// A small typed event emitter whose listeners can never break a call.
import { describeThrown, SessionError } from "../errors.js";
import type { AgentSessionEvents } from "../types.js";

type Listener<K extends keyof AgentSessionEvents> = (event: AgentSessionEvents[K]) => void;

export interface SessionEmitter {
  on<K extends keyof AgentSessionEvents>(event: K, listener: Listener<K>): () => void;
  emit<K extends keyof AgentSessionEvents>(event: K, payload: AgentSessionEvents[K]): void;
  has(event: keyof AgentSessionEvents): boolean;
  /**
   * How many listeners the events every call may emit have (`tool_execution_start`, `tool_execution_end`,
   * `tool_call_phase`): at 0, a call skips every `has` check, one field read instead of three lookups per call.
   */
  readonly callListeners: number;
}

/** The events every call may emit, counted by `callListeners`. */
const CALL_EVENTS: ReadonlySet<string> = new Set(["tool_execution_start", "tool_execution_end", "tool_call_phase"]);

/** Listeners run in order; one that throws is reported as an `error` event (an `error` listener that throws is ignored). */
export function createSessionEmitter(): SessionEmitter {
  const listeners: { [K in keyof AgentSessionEvents]: Set<Listener<K>> } = {
    tool_execution_start: new Set(),
    tool_execution_update: new Set(),
    tool_execution_end: new Set(),
    tool_call_phase: new Set(),
    tool_log: new Set(),
    approval_requested: new Set(),
    approval_resolved: new Set(),
    error: new Set(),
  };
  const emitter: { -readonly [K in keyof SessionEmitter]: SessionEmitter[K] } = {
    callListeners: 0,
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      if (set === undefined) throw new TypeError(`Unknown session event: ${String(event)}`);
      const counted = CALL_EVENTS.has(event);
      if (counted && !set.has(listener)) emitter.callListeners++;
      set.add(listener);
      return () => {
        if (set.delete(listener) && counted) emitter.callListeners--;
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
