// Abort signals for bridged calls whose context reports aborts through `onAbort`: reused, so such a call makes no AbortController.
import type { ToolCallContext } from "../../core/types.js";

/** The signal a call hands to the SDK, and what gives it back when the call settled. */
interface CallSignal {
  readonly signal: AbortSignal;
  /** Stops relaying the context's abort; a signal that was not aborted may be lent again. */
  release(): void;
}

/** Lends call signals; one per connection. */
interface CallSignalPool {
  /**
   * The context's own `signal` when it has no `onAbort`; else a signal of the pool (a new one when none is
   * free) that the context's abort aborts with its reason until `release`.
   */
  take(context: ToolCallContext): CallSignal;
}

/** Free signals kept at most: calls in flight together beyond this make their own. */
const MAX_FREE = 16;

const NOTHING_TO_RELEASE = () => {};

/**
 * A pool of call signals. Why: in Node 20 an AbortController costs about 5 µs to make, and a session's
 * context makes one (guarded against throwing listeners, several µs more) on the first read of `signal`.
 * A signal that was never aborted can serve the next call: the SDK removes its listener when the request
 * settles, before `release` runs. An aborted one is dropped.
 */
export function createCallSignalPool(): CallSignalPool {
  const free: AbortController[] = [];
  return {
    take(context) {
      if (typeof context.onAbort !== "function") return { signal: context.signal, release: NOTHING_TO_RELEASE };
      const controller = free.pop() ?? new AbortController();
      const stopRelaying = context.onAbort((reason) => controller.abort(reason));
      return {
        signal: controller.signal,
        release() {
          stopRelaying();
          if (!controller.signal.aborted && free.length < MAX_FREE) free.push(controller);
        },
      };
    },
  };
}
