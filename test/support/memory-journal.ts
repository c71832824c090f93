// A run journal in memory for the loop's tests: entries kept as JSON copies, appends optionally made to fail.
import type { JournalEntry, RunJournal, RunLease } from "../../src/journal/run-journal.js";

export interface MemoryJournal extends RunJournal {
  readonly runs: Map<string, JournalEntry[]>;
  /** When set, the next appends reject with this error. */
  failWith: Error | undefined;
  /** When set, `acquire` answers that another process holds the run. */
  held: boolean;
}

export function memoryJournal(): MemoryJournal {
  const runs = new Map<string, JournalEntry[]>();
  const journal: MemoryJournal = {
    runs,
    failWith: undefined,
    held: false,
    async append(runId, entries) {
      if (journal.failWith !== undefined) throw journal.failWith;
      const list = runs.get(runId) ?? [];
      list.push(...(JSON.parse(JSON.stringify(entries)) as JournalEntry[]));
      runs.set(runId, list);
    },
    async read(runId) {
      return JSON.parse(JSON.stringify(runs.get(runId) ?? [])) as JournalEntry[];
    },
    async acquire(): Promise<RunLease | undefined> {
      return journal.held ? undefined : { release: async () => undefined };
    },
  };
  return journal;
}
