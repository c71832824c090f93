// An executor's abort signal whose listeners cannot crash the host: Node rethrows a listener's throw as an uncaught
// exception.

type Listener = ((event: Event) => void) | { handleEvent(event: Event): void };
type AddOptions = Parameters<EventTarget["addEventListener"]>[2];
type RemoveOptions = Parameters<EventTarget["removeEventListener"]>[2];

/**
 * Makes every listener added to `signal` (through `addEventListener` or `onabort`) run inside a
 * try/catch, handing a throw to `report` instead of Node's uncaught-exception path, which ends the
 * process. Removal works with the listener as it was given. Listeners on signals derived from this
 * one (`AbortSignal.any`) are the deriving code's own and are not covered.
 */
export function guardAbortListeners(signal: AbortSignal, report: (error: unknown) => void): AbortSignal {
  const guarded = new WeakMap<object, (event: Event) => void>();
  const guard = (listener: Listener): ((event: Event) => void) => {
    let wrapper = guarded.get(listener);
    if (wrapper === undefined) {
      wrapper = function guardedListener(this: unknown, event: Event) {
        try {
          if (typeof listener === "function") listener.call(this, event);
          else listener.handleEvent(event);
        } catch (error) {
          report(error);
        }
      };
      guarded.set(listener, wrapper);
    }
    return wrapper;
  };
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  let onabort: ((event: Event) => void) | null = null;
  let onabortWrapper: ((event: Event) => void) | null = null;
  Object.defineProperties(signal, {
    addEventListener: {
      value(type: string, listener: Listener | null, options?: unknown) {
        if (listener === null || (typeof listener !== "function" && typeof listener !== "object")) {
          return add.call(signal, type, listener as never, options as AddOptions);
        }
        return add.call(signal, type, guard(listener), options as AddOptions);
      },
    },
    removeEventListener: {
      value(type: string, listener: Listener | null, options?: unknown) {
        const wrapper = listener === null ? undefined : guarded.get(listener);
        return remove.call(signal, type, (wrapper ?? listener) as never, options as RemoveOptions);
      },
    },
    onabort: {
      get: () => onabort,
      set(listener: unknown) {
        if (onabortWrapper !== null) remove.call(signal, "abort", onabortWrapper);
        onabort = typeof listener === "function" ? (listener as (event: Event) => void) : null;
        onabortWrapper = onabort === null ? null : guard(onabort);
        if (onabortWrapper !== null) add.call(signal, "abort", onabortWrapper);
      },
    },
  });
  return signal;
}
