// Appends to one run, one write at a time; the appends that arrive while a write is under way go together in the
// next one: a turn's parallel calls share one fsync instead of taking one each (measured in docs/benchmarks.md).
import type { JournalEntry } from "./run-journal.js";

/** A run's appends, written in order by `write`, grouped while a write is under way. */
export interface AppendGroups {
  /** Resolves once `write` wrote the entries (with those grouped with them); rejects as that write did. */
  append(runId: string, entries: readonly JournalEntry[]): Promise<void>;
  /** Resolves once the run's appends so far are written or failed. */
  settled(runId: string): Promise<void>;
}

interface RunAppends {
  /** Settles when the last group started is written or failed. */
  tail: Promise<void>;
  /** The group that has not started its write yet: later appends join it. */
  open?: { readonly entries: JournalEntry[]; written: Promise<void> };
}

export function groupAppends(write: (runId: string, entries: readonly JournalEntry[]) => Promise<void>): AppendGroups {
  const runs = new Map<string, RunAppends>();
  return {
    append(runId, entries) {
      let run = runs.get(runId);
      if (run === undefined) {
        run = { tail: Promise.resolve() };
        runs.set(runId, run);
      }
      if (run.open !== undefined) {
        run.open.entries.push(...entries);
        return run.open.written;
      }
      const group = { entries: [...entries], written: Promise.resolve() };
      const owner = run;
      owner.open = group;
      group.written = owner.tail.then(() => {
        owner.open = undefined; // its write starts: later appends form the next group
        return write(runId, group.entries);
      });
      const tail = group.written.catch(() => undefined);
      owner.tail = tail;
      void tail.then(() => {
        if (runs.get(runId) === owner && owner.tail === tail) runs.delete(runId);
      });
      return group.written;
    },
    settled: (runId) => runs.get(runId)?.tail ?? Promise.resolve(),
  };
}
