import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { ToolCallContext } from "../../core/types.js";
import { createCallSignalPool } from "./call-signal-pool.js";

/** A context that reports aborts through onAbort; `abort` plays the session aborting the call. */
function reportingContext() {
  const listeners = new Set<(reason: unknown) => void>();
  const context: ToolCallContext = {
    toolCallId: "c1",
    get signal(): AbortSignal {
      throw new Error("the signal was read");
    },
    onUpdate: () => {},
    onAbort(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const abort = (reason: unknown) => {
    for (const listener of listeners) listener(reason);
  };
  return { context, listeners, abort };
}

describe("createCallSignalPool", () => {
  it("lends a context without onAbort its own signal", () => {
    const signal = new AbortController().signal;
    const call = createCallSignalPool().take({ toolCallId: "c1", signal, onUpdate: () => {} });
    expect(call.signal).toBe(signal);
    call.release();
  });

  it("aborts the lent signal with the reason the context reports", () => {
    const { context, abort } = reportingContext();
    const call = createCallSignalPool().take(context);
    const reason = new Error("stop");
    abort(reason);
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBe(reason);
  });

  it("stops listening to the context on release", () => {
    const { context, listeners } = reportingContext();
    const call = createCallSignalPool().take(context);
    expect(listeners.size).toBe(1);
    call.release();
    expect(listeners.size).toBe(0);
  });

  it("lends a signal that was not aborted to the next call", () => {
    const pool = createCallSignalPool();
    const first = pool.take(reportingContext().context);
    first.release();
    const second = pool.take(reportingContext().context);
    expect(second.signal).toBe(first.signal);
    expect(getEventListeners(second.signal, "abort")).toHaveLength(0);
  });

  it("never lends an aborted signal again", () => {
    const pool = createCallSignalPool();
    const aborted = reportingContext();
    const first = pool.take(aborted.context);
    aborted.abort("stop");
    first.release();
    const second = pool.take(reportingContext().context);
    expect(second.signal).not.toBe(first.signal);
    expect(second.signal.aborted).toBe(false);
  });

  it("lends calls in flight together signals of their own", () => {
    const pool = createCallSignalPool();
    const first = pool.take(reportingContext().context);
    const second = pool.take(reportingContext().context);
    expect(second.signal).not.toBe(first.signal);
  });
});
