// An approval store in one process's memory: each id claimed once, remembered until its approval expires.
import type { ApprovalStore } from "../types.js";

/** An approval store in memory, and how many ids it remembers now. */
export interface MemoryApprovalStore extends ApprovalStore {
  /** The ids it holds now, expired ones not yet dropped included. */
  readonly size: number;
}

/** Below this many ids the store never sweeps. */
const MIN_SWEEP_SIZE = 1_024;

/**
 * An approval store in memory: `claim` is true the first time an id is claimed and false after, until
 * `expiresAt` (by this process's clock, the one the approval's own expiry is checked against); an id
 * claimed without `expiresAt` is remembered for as long as the store lives. Expired ids are dropped in a
 * sweep each time the store has doubled since the last one, so it holds at most twice the ids still live, or
 * 1024, whichever is more. Nothing survives the process: a restart forgets every id.
 */
export function createMemoryApprovalStore(): MemoryApprovalStore {
  // Each id with the time after which it may be forgotten.
  const claimed = new Map<string, number>();
  let sweepAt = MIN_SWEEP_SIZE;
  const sweep = (now: number) => {
    for (const [id, until] of claimed) if (until < now) claimed.delete(id);
    sweepAt = Math.max(MIN_SWEEP_SIZE, claimed.size * 2);
  };
  return {
    claim(approvalId, expiresAt) {
      const now = Date.now();
      const held = claimed.get(approvalId);
      if (held !== undefined && held >= now) return false;
      // A non-number (from a caller without types) counts as none: remembered for good, the safe side.
      claimed.set(approvalId, typeof expiresAt === "number" && !Number.isNaN(expiresAt) ? expiresAt : Infinity);
      if (claimed.size >= sweepAt) sweep(now);
      return true;
    },
    get size() {
      return claimed.size;
    },
  };
}
