// The session write lock: a FIFO promise-chain mutex that releases on throw and, idle, holds one settled promise.
import type { WriteLock } from "../types.js";

/**
 * Creates a write lock: `lock(run)` starts `run` once every earlier holder has settled, and
 * settles as `run` does. A throwing or rejecting `run` releases the lock like a returning one.
 */
export function createWriteLock(): WriteLock {
  let tail: Promise<unknown> = Promise.resolve();
  return function runWithSessionWriteLock<T>(run: () => Promise<T>): Promise<T> {
    const result = tail.then(run);
    tail = result.then(ignore, ignore);
    return result;
  };
}

function ignore(): void {}
