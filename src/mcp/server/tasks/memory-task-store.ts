// createMemoryTaskStore: served tasks in this process's memory, ended ones forgotten once they expire.
import type { TaskRecord } from "./task-record.js";
import type { TaskStore } from "./task-store.js";

/**
 * A `TaskStore` in memory, for one process: a record past its `expiresAt` is not found, and a sweep (every
 * `sweepMs`, default 60 s, on an unref'ed timer) deletes such records.
 */
export function createMemoryTaskStore(options: { readonly sweepMs?: number } = {}): TaskStore {
  const records = new Map<string, TaskRecord>();
  const expired = (record: TaskRecord, now: number) => record.expiresAt !== undefined && record.expiresAt <= now;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [taskId, record] of records) if (expired(record, now)) records.delete(taskId);
  }, options.sweepMs ?? 60_000);
  sweep.unref();
  return {
    async create(record) {
      records.set(record.taskId, record);
    },
    async get(taskId) {
      const record = records.get(taskId);
      if (record === undefined || !expired(record, Date.now())) return record;
      records.delete(taskId);
      return undefined;
    },
    async put(record) {
      records.set(record.taskId, record);
    },
    async close() {
      clearInterval(sweep);
      records.clear();
    },
  };
}
