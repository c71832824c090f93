// A served task as plain JSON (what a store keeps), its moves from status to status, and its view on the wire.

/** Where a task stands (the `io.modelcontextprotocol/tasks` extension's statuses). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** One task, as a store keeps it: plain JSON, so any store can hold it. Times are epoch milliseconds. */
export interface TaskRecord {
  readonly taskId: string;
  /** The principal that started it: only it may see, answer or cancel the task. */
  readonly principal: string;
  readonly toolName: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** When the store may forget it: `undefined` while the call runs, a bounded time after it ended. */
  readonly expiresAt?: number;
  readonly pollIntervalMs: number;
  /** With `input_required`: the questions the client is to answer with `tasks/update`, by key. */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** With `completed`: the `tools/call` result. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** With `failed`: the JSON-RPC error. */
  readonly error?: { readonly code: number; readonly message: string };
}

/** What happens to a task: a question asked or answered, the call's end, a cancel. */
export type TaskEvent =
  | { readonly kind: "asked"; readonly key: string; readonly request: unknown; readonly message: string }
  | { readonly kind: "answered"; readonly key: string }
  | { readonly kind: "completed"; readonly result: Readonly<Record<string, unknown>> }
  | { readonly kind: "failed"; readonly error: { readonly code: number; readonly message: string } }
  | { readonly kind: "cancelled" };

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** Whether the task has ended: its status never changes again. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/**
 * The task after `event` at `now`: a question makes it `input_required` (with that question), its answer makes it
 * `working` again, and the call's end or a cancel ends it, to be forgotten `keepMs` later. An ended task never
 * changes (a late end or cancel leaves it as it is).
 */
export function transitionTask(record: TaskRecord, event: TaskEvent, now: number, keepMs: number): TaskRecord {
  if (isTerminal(record.status)) return record;
  const { inputRequests: _asked, statusMessage: _message, ...rest } = record;
  const base = { ...rest, lastUpdatedAt: now };
  switch (event.kind) {
    case "asked":
      return {
        ...base,
        status: "input_required",
        statusMessage: event.message,
        inputRequests: { ...record.inputRequests, [event.key]: event.request },
      };
    case "answered": {
      const { [event.key]: _answered, ...left } = record.inputRequests ?? {};
      return Object.keys(left).length === 0
        ? { ...base, status: "working" }
        : { ...base, status: "input_required", inputRequests: left };
    }
    case "completed":
      return { ...base, status: "completed", result: event.result, expiresAt: now + keepMs };
    case "failed":
      return {
        ...base,
        status: "failed",
        statusMessage: event.error.message,
        error: event.error,
        expiresAt: now + keepMs,
      };
    case "cancelled":
      return { ...base, status: "cancelled", statusMessage: "cancelled by the client", expiresAt: now + keepMs };
  }
}

/**
 * The task as `tasks/get` (and, less the details, a `tools/call` answered with a task) shows it: ISO times, and a
 * `ttlMs` from its creation to when it may be forgotten (`null` while the call runs: it is kept until it ends).
 */
export function taskOnTheWire(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.expiresAt === undefined ? null : record.expiresAt - record.createdAt,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  if (record.status === "completed") task.result = record.result ?? { content: [] };
  if (record.status === "failed") task.error = record.error;
  return task;
}
