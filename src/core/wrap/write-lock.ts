// The session write lock: a FIFO promise-chain mutex that releases on throw and holds no memory when idle.
import type { WriteLock } from "../types.js";

/**
 * Creates a write lock: `lock(run)` starts `run` once every earlier holder has settled, and
 * settles as `run` does. A throwing or rejecting `run` releases the lock like a returning one.
 */
export function createWriteLock(): WriteLock {
  let tail: Promise<unknown> | undefined;
  return function runWithSessionWriteLock<T>(run: () => Promise<T>): Promise<T> {
    const previous = tail;
    const result = previous === undefined ? invoke(run) : previous.then(() => invoke(run));
    const settled = result.then(ignore, ignore);
    tail = settled;
    settled.then(() => {
      if (tail === settled) tail = undefined; // idle again: drop the chain
    });
    return result;
  };
}

function invoke<T>(run: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

function ignore(): void {}
