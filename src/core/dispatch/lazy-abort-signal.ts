// A call's abort as its executor hears of it: the AbortSignal is made only when the executor reads it.
// Measured on Node 20 (docs/benchmarks.md, "The call pipeline"): `dispatchAll` of 100 no-op calls costs about 0.9 µs a
// call with this; making each call's signal at once costs 6.1 µs a call for a plain AbortController, and 21.6 µs once
// its listeners are guarded (interleaved rounds, one process). Most executors never read their signal.
import { guardAbortListeners } from "./guard-abort-listeners.js";

/**
 * One call's abort: `abort(reason)` once, heard through `signal` (made on first read, its listeners guarded so that
 * a throwing one goes to `reportAbortListener` instead of ending the process) and through `onAbort` listeners.
 */
export abstract class LazyAbortSignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #listeners: ((reason: unknown) => void)[] | undefined;

  /** An abort listener threw (the signal's or an `onAbort` one). */
  abstract reportAbortListener(error: unknown): void;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      guardAbortListeners(this.#controller.signal, (error) => this.reportAbortListener(error));
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Calls `listener` once with the reason when aborted (at once if it was); returns a function that removes it. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (typeof listener !== "function") throw new TypeError("context.onAbort takes a function");
    if (this.#aborted) {
      this.#tell(listener);
      return () => {};
    }
    this.#listeners ??= [];
    const listeners = this.#listeners;
    listeners.push(listener);
    return () => {
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    };
  }

  /** Aborts with `reason`: the signal, if made, then the `onAbort` listeners, in the order they came. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) this.#tell(listener);
  }

  #tell(listener: (reason: unknown) => void): void {
    try {
      listener(this.#reason);
    } catch (error) {
      this.reportAbortListener(error);
    }
  }
}
