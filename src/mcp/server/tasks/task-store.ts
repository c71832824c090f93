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
  /**
   * For a store shared by processes (replicas): from when it resolves, the messages `send` sends for `taskId` from
   * any process reach `onMessage`, until the function it resolves with is called. The process that runs a task
   * listens for it.
   */
  listen?(taskId: string, onMessage: (message: TaskControlMessage) => void): Promise<() => void>;
  /** Sends a task's `tasks/cancel` or `tasks/update` to the process listening for it; false when none did. */
  send?(taskId: string, message: TaskControlMessage): Promise<boolean>;
}

/** What a process that does not run a task passes on to the one that does: a cancel, or answers by key. */
export type TaskControlMessage =
  | { readonly kind: "cancel" }
  | { readonly kind: "update"; readonly responses: Readonly<Record<string, unknown>> };
