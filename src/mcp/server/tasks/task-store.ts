// TaskStore: where served tasks are kept, so that tasks/get finds them; the seam for a store shared by replicas.
import type { TaskRecord } from "./task-record.js";

/**
 * Keeps the tasks `serve` hands out (docs/mcp.md#tasks). Records are plain JSON. `create` and `put` resolve once a
 * `get` (from any process sharing the store) would see the write. A store may forget a record after its
 * `expiresAt`, never before, and never one without it (its call still runs).
 */
export interface TaskStore {
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Replaces the record with this task id. */
  put(record: TaskRecord): Promise<void>;
  /** Stops the store's timers and lets go of its records or connections. */
  close(): Promise<void>;
}
