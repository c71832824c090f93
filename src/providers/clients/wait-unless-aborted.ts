// A delay that an abort signal cuts short: the model clients' retry backoff and the scripted model's pauses.

/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as soon as it aborts (at once when it already
 * has). Leaves no timer and no listener behind either way.
 */
export function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
