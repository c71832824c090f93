// createServedTasks: the tasks one server hands out: a call that outlasts afterMs or waits for an approval becomes a
// task; tasks/get, tasks/update (the approval's answer) and tasks/cancel find it by id, for its principal only.
import { randomUUID } from "node:crypto";
import { compilePolicyPattern } from "../../../core/filter/policy.js";
import type { ToolDescriptor } from "../../../core/types.js";
import { McpServeError } from "../errors.js";
import { createMemoryTaskStore } from "./memory-task-store.js";
import type { ServeTasksOptions } from "./serve-tasks-options.js";
import { isTerminal, type TaskEvent, type TaskRecord, transitionTask } from "./task-record.js";
import type { TaskControlMessage, TaskStore } from "./task-store.js";

/** One question a running call asks its client through the task (an approval). */
export interface TaskQuestion {
  /** The request shown in the task's `inputRequests` (an `elicitation/create`). */
  readonly request: unknown;
  /** The task's status message while it waits. */
  readonly message: string;
  /** Ends the wait when the task is cancelled or the call stops waiting. */
  readonly signal: AbortSignal;
}

/** A call that may become a task: made when the call starts, before anyone knows. */
export interface TaskableCall {
  /** Aborted by `tasks/cancel` (and, until the call became a task, by the request's own signal). */
  readonly signal: AbortSignal;
  /**
   * Resolves with the task's record (as `tools/call` answers it) once the call became one; rejects when the store
   * could not keep the task.
   */
  readonly becameTask: Promise<TaskRecord>;
  /** Whether the call is a task, or is being made one: its questions then go through the task. */
  isTask(): boolean;
  /** Asks the client (the call becomes a task, `input_required`); resolves with its answer to the question. */
  ask(question: TaskQuestion): Promise<unknown>;
  /** The call ended: its result goes into the task, when it is one. */
  finish(end: { readonly result: Record<string, unknown> } | { readonly error: Error }): void;
}

/** The tasks of one server, for all its principals. */
export interface ServedTasks {
  /**
   * A new call of `principal` to `toolName`; `requestSignal` aborts it until it becomes a task. `required`: it is
   * answered with a task however quick it is (a tool `required` names): made once it outlasts `afterMs`, or else
   * when it ends.
   */
  begin(principal: string, toolName: string, requestSignal: AbortSignal, required?: boolean): TaskableCall;
  /** Whether calls of this tool always run as tasks (the options' `require` patterns name it). */
  required(toolName: string, descriptor: ToolDescriptor | undefined): boolean;
  /** The task, when it exists, has not been forgotten and belongs to `principal`. */
  get(principal: string, taskId: string): Promise<TaskRecord | undefined>;
  /** Answers the task's open questions by key (others are ignored); false when there is no such task. */
  update(principal: string, taskId: string, responses: Readonly<Record<string, unknown>>): Promise<boolean>;
  /** Cancels the task's call (it sees its signal aborted); false when there is no such task. */
  cancel(principal: string, taskId: string): Promise<boolean>;
  /** Aborts the calls still running and closes the store. */
  close(): Promise<void>;
}

export const DEFAULT_TASK_AFTER_MS = 1_000;
export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;
/** The error of a task whose call still ran when its server closed. */
export const CLOSED_TASK_MESSAGE = "the server stopped before the task ended: call the tool again";

/** A call that became a task and runs in this process. */
interface LiveTask {
  readonly principal: string;
  readonly controller: AbortController;
  /** The open questions, by key: each resolves the call's wait with the client's answer. */
  readonly questions: Map<string, (answer: unknown) => void>;
  apply(event: TaskEvent): Promise<void>;
}

/** The tasks of one server; rejects malformed options with `McpServeError` `invalid-serve-options`. */
export function createServedTasks(options: ServeTasksOptions = {}): ServedTasks {
  const afterMs = checkedMs("afterMs", options.afterMs, DEFAULT_TASK_AFTER_MS);
  const keepMs = checkedMs("ttlMs", options.ttlMs, DEFAULT_TASK_TTL_MS);
  const pollIntervalMs = checkedMs("pollIntervalMs", options.pollIntervalMs, DEFAULT_TASK_POLL_INTERVAL_MS);
  const store = storeOf(options.store);
  const required = requiredTools(options.require);
  const live = new Map<string, LiveTask>();

  const find = async (principal: string, taskId: string) => {
    const record = typeof taskId === "string" ? await store.get(taskId) : undefined;
    // Another principal's task is answered as one that does not exist: ids cannot be probed.
    return record?.principal === principal ? record : undefined;
  };

  const begin = (principal: string, toolName: string, requestSignal: AbortSignal, required = false): TaskableCall => {
    const controller = new AbortController();
    const onRequestAbort = () => controller.abort(requestSignal.reason);
    if (requestSignal.aborted) onRequestAbort();
    else requestSignal.addEventListener("abort", onRequestAbort, { once: true });
    let record: TaskRecord | undefined;
    let writes = Promise.resolve();
    let signalTask: (record: TaskRecord) => void = () => {};
    let storeFailed: (error: unknown) => void = () => {};
    const becameTask = new Promise<TaskRecord>((resolve, reject) => {
      signalTask = resolve;
      storeFailed = reject;
    });
    // Handled by whoever waits for it; a call nobody answers with a task leaves no unhandled rejection behind.
    becameTask.catch(() => undefined);
    const questions = new Map<string, (answer: unknown) => void>();
    // The task, made once (by materialize): the record is stored before the call is answered with it (a tasks/get
    // then finds it).
    let creating: Promise<TaskRecord> | undefined;
    let stopListening: (() => void) | undefined;
    const apply = (event: TaskEvent) => {
      if (record === undefined) return Promise.resolve();
      record = transitionTask(record, event, Date.now(), keepMs);
      if (isTerminal(record.status)) live.delete(record.taskId);
      const written = record;
      // After the record is created: a later write must not be overtaken by the first one.
      writes = writes
        .then(() => creating)
        .then(() => store.put(written))
        .catch(() => undefined);
      // Other processes' cancels and answers are listened for until the end is written.
      if (isTerminal(written.status)) writes = writes.then(() => stopListening?.());
      return writes;
    };
    const materialize = () => {
      creating ??= (async () => {
        requestSignal.removeEventListener("abort", onRequestAbort);
        const now = Date.now();
        const made: TaskRecord = {
          taskId: randomUUID(),
          principal,
          toolName,
          status: "working",
          createdAt: now,
          lastUpdatedAt: now,
          pollIntervalMs,
        };
        record = made;
        live.set(made.taskId, { principal, controller, questions, apply });
        // Before the record exists: a process that finds it can reach this one.
        stopListening = await store.listen?.(made.taskId, (message) => receive(made.taskId, message));
        await store.create(made);
        return made;
      })();
      return creating;
    };
    // A call that must be a task fails when the store cannot take it; one past afterMs is then answered as it ends,
    // without a task (Redis away).
    const madeTask = () => signalTask(record as TaskRecord);
    // `finish` clears it: a call that ended is never made a task by the timer.
    const timer = setTimeout(() => {
      void materialize().then(madeTask, required ? storeFailed : () => undefined);
    }, afterMs);
    const end = (how: { readonly result: Record<string, unknown> } | { readonly error: Error }) =>
      apply(
        "result" in how ? { kind: "completed", result: how.result } : { kind: "failed", error: failureOf(how.error) },
      );
    return {
      signal: controller.signal,
      becameTask,
      isTask: () => creating !== undefined,
      async ask(question) {
        await materialize();
        const key = `approval-${randomUUID()}`;
        const answered = new Promise<unknown>((resolve) => questions.set(key, resolve));
        await apply({ kind: "asked", key, request: question.request, message: question.message });
        madeTask();
        const stop = () => questions.get(key)?.(undefined);
        question.signal.addEventListener("abort", stop, { once: true });
        try {
          return await answered;
        } finally {
          question.signal.removeEventListener("abort", stop);
          questions.delete(key);
          await apply({ kind: "answered", key });
        }
      },
      finish(how) {
        clearTimeout(timer);
        requestSignal.removeEventListener("abort", onRequestAbort);
        if (creating !== undefined) void end(how);
        // A call that must be a task and ended before afterMs: its task is made now, already ended.
        else if (required) void materialize().then(() => end(how).then(madeTask), storeFailed);
      },
    };
  };

  const answer = (task: LiveTask, responses: Readonly<Record<string, unknown>>) => {
    for (const [key, answer] of Object.entries(responses)) {
      const resolve = task.questions.get(key);
      if (resolve === undefined) continue; // never asked, or answered already: ignored
      task.questions.delete(key);
      resolve(answer);
    }
  };
  const cancelLive = async (task: LiveTask) => {
    await task.apply({ kind: "cancelled" });
    task.controller.abort(new Error("the task was cancelled by the client"));
  };
  // A cancel or answers another process received for a task this one runs (the store checked nothing: it did).
  const receive = (taskId: string, message: TaskControlMessage) => {
    const task = live.get(taskId);
    if (task === undefined) return;
    if (message.kind === "cancel") void cancelLive(task);
    else answer(task, message.responses);
  };

  return {
    begin,
    required,
    get: find,
    async update(principal, taskId, responses) {
      if ((await find(principal, taskId)) === undefined) return false;
      const task = live.get(taskId);
      if (task === undefined) await store.send?.(taskId, { kind: "update", responses });
      else answer(task, responses);
      return true;
    },
    async cancel(principal, taskId) {
      if ((await find(principal, taskId)) === undefined) return false;
      const task = live.get(taskId);
      if (task === undefined) await store.send?.(taskId, { kind: "cancel" });
      else await cancelLive(task);
      return true;
    },
    async close() {
      // Written before the store closes: in a store shared by replicas, the others see these tasks end at once.
      const running = [...live.values()];
      const ending = running.map((task) =>
        task.apply({ kind: "failed", error: { code: -32603, message: CLOSED_TASK_MESSAGE } }),
      );
      for (const task of running) task.controller.abort(new Error("the server closed"));
      live.clear();
      await Promise.all(ending);
      await store.close();
    },
  };
}

/**
 * A failed task's JSON-RPC error: the call's own code when it ended in a protocol error (an MCP `ProtocolError`),
 * else -32603 (internal error).
 */
function failureOf(error: Error): { readonly code: number; readonly message: string } {
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === "number" && Number.isSafeInteger(code) ? code : -32603, message: error.message };
}

function checkedMs(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp needs tasks.${name} to be a whole number of milliseconds, 0 or more, got ${String(value)}`,
    );
  }
  return value;
}

function requiredTools(patterns: ServeTasksOptions["require"]): ServedTasks["required"] {
  if (patterns === undefined) return () => false;
  if (!Array.isArray(patterns) || !patterns.every((pattern) => typeof pattern === "string")) {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp needs tasks.require to be a list of policy patterns, got ${JSON.stringify(patterns) ?? String(patterns)}`,
    );
  }
  const matchers = patterns.map((pattern) => compilePolicyPattern(pattern));
  return (toolName, descriptor) =>
    descriptor !== undefined && matchers.some((matches) => matches(descriptor, toolName.toLowerCase()));
}

function storeOf(store: ServeTasksOptions["store"]): TaskStore {
  if (store === undefined || store === "memory") return createMemoryTaskStore();
  if (typeof store === "object" && store !== null && typeof store.get === "function") return store;
  throw new McpServeError(
    "invalid-serve-options",
    `serveMcp needs tasks.store to be "memory" or a TaskStore, got ${JSON.stringify(store) ?? String(store)}`,
  );
}
