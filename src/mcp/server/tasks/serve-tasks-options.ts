// ServeTasksOptions: how `serve` hands out tasks (the config's serve.tasks too). Types only, no MCP SDK type.
import type { TaskStore } from "./task-store.js";

/** How `serve` answers slow calls and approvals with tasks, for clients that declare the tasks extension. */
export interface ServeTasksOptions {
  /** A call still running this long after it came is answered with a task. Default 1000; 0 makes every call one. */
  readonly afterMs?: number;
  /** How long an ended task (its result) is kept, from its end. Default 3600000 (1 hour). */
  readonly ttlMs?: number;
  /** The poll interval suggested to clients. Default 1000. */
  readonly pollIntervalMs?: number;
  /**
   * Policy patterns (as `approvals.require`) of the tools whose calls always run as tasks: a declaring client is
   * answered with a task however quick the call (made at `afterMs`, or as the call ends), any other request `-32021`
   * (the tasks extension is required). Default: none.
   */
  readonly require?: readonly string[];
  /** Where tasks are kept: `"memory"` (the default: this process only), or a `TaskStore`. */
  readonly store?: "memory" | TaskStore;
}
