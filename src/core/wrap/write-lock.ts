// The session write lock: a FIFO promise-chain mutex that releases on throw and holds no memory when idle.
import type { WriteLock } from "../types.js";
import { isThenable } from "./hooks.js";

const idleLocks = new WeakMap<WriteLock, () => boolean>();

/**
 * Creates a write lock: `lock(run)` starts `run` once every earlier holder has settled, and
 * settles as `run` does. A throwing or rejecting `run` releases the lock like a returning one.
 */
export function createWriteLock(): WriteLock {
  let tail: Promise<unknown> | undefined;
  const lock = function runWithSessionWriteLock<T>(run: () => Promise<T>): Promise<T> {
    const previous = tail;
    const result = previous === undefined ? invoke(run) : previous.then(() => invoke(run));
    const settled = result.then(ignore, ignore);
    tail = settled;
    settled.then(() => {
      if (tail === settled) tail = undefined; // idle again: drop the chain
    });
    return result;
  };
  idleLocks.set(lock, () => tail === undefined);
  return lock;
}

/**
 * Runs `run` holding the lock. With a lock made by `createWriteLock` that is idle, `run` starts at
 * once and synchronously; if it returns a promise, the lock is taken until it settles. Nothing else
 * can run in between, so this is the same exclusion at the cost of no promise for synchronous work.
 */
export function runLocked<T>(lock: WriteLock, run: () => T | Promise<T>): T | Promise<T> {
  if (idleLocks.get(lock)?.() === true) {
    const value = run();
    return isThenable(value) ? lock(() => value as Promise<T>) : value;
  }
  return lock(() => invoke(run));
}

function invoke<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

function ignore(): void {}
