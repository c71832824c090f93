// The worker side of remote executors (docs/workers.md): takes a queue's jobs and runs each call with the tool of that
// name, here.
import { type Job, Worker } from "bullmq";
import { Redis } from "ioredis";
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { errorResult } from "../../core/tool-result.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolResult } from "../../core/types.js";
import { wrapTool } from "../../core/wrap/wrap-tool.js";
import { ExecutorError } from "../executor-error.js";
import {
  type CallJobData,
  type CallJobProgress,
  type CallJobReply,
  cancelChannel,
  checkExecutorNames,
  defaultQueueName,
} from "./job-protocol.js";
import { parseRedisAddress } from "./parse-redis-address.js";
import { redisOptions } from "./redis-options.js";

/** Options of `startBullmqWorker`. */
export interface BullmqWorkerOptions {
  /** The executor's id, as the sessions' config names it. */
  readonly id: string;
  /** `redis://[user:password@]HOST:PORT[/db]`, or `rediss://` for TLS: the same Redis as the sessions'. */
  readonly connection: string;
  /** The BullMQ queue; default `toolwire-<id>`. */
  readonly queue?: string;
  /** The tools it runs, by name (a registry's `tools`, or a list). A tool with `runsOn` set is refused. */
  readonly tools: ReadonlyMap<string, AgentTool> | readonly AgentTool[];
  /** How many calls it runs at once. Default 1. */
  readonly concurrency?: number;
  /**
   * How long a worker's hold on a job lasts without renewal (it renews at half that): a worker that dies is found
   * out within about this long, and its job runs once more on another worker. Default 5000 ms.
   */
  readonly lockDurationMs?: number;
  /** Told about trouble that did not stop the worker (Redis errors, a failed progress report). */
  readonly onError?: (error: Error) => void;
}

/** A running worker. */
export interface BullmqWorker {
  readonly id: string;
  readonly queue: string;
  /** The Redis address, without its password. */
  readonly address: string;
  /** How many calls it is running now. */
  readonly running: number;
  /**
   * Stops taking jobs, lets the running calls finish (`force`: stops them, and their jobs go back to the queue
   * once their lock runs out), and closes the connections.
   */
  close(options?: { readonly force?: boolean }): Promise<void>;
}

/** BullMQ's own stalled-job checks: at most one more run after a worker dies, checked every half lock. */
const MAX_STALLED_COUNT = 1;
const DEFAULT_LOCK_DURATION_MS = 5_000;

/**
 * Starts a worker of a BullMQ executor: it takes the queue's jobs and runs each call with the tool of its name,
 * with a context whose signal aborts when the session cancels the call (its abort or timeout), whose `onUpdate`
 * sends progress back, and replies with the result (a run that fails replies with its error result and code). A
 * call whose tool this worker lacks replies `tool-not-found`. Resolves once it listens. Throws `ExecutorError`
 * `invalid-executor` for a bad id, queue, connection or concurrency, or for a tool that itself runs remotely.
 */
export async function startBullmqWorker(options: BullmqWorkerOptions): Promise<BullmqWorker> {
  checkExecutorNames(options.id, options.queue);
  const { id } = options;
  const address = parseRedisAddress(options.connection, id);
  const queueName = options.queue ?? defaultQueueName(id);
  const concurrency = options.concurrency ?? 1;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new ExecutorError("invalid-executor", `Worker of ${id}: concurrency must be a whole number 1 or more`);
  }
  const lockDuration = options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS;
  const tools = new Map<string, AgentTool>();
  for (const tool of options.tools instanceof Map ? options.tools.values() : (options.tools as readonly AgentTool[])) {
    if (tool.runsOn !== undefined) {
      throw new ExecutorError(
        "invalid-executor",
        `Worker of ${id}: tool ${tool.descriptor.name} itself runs on executor ${tool.runsOn}; give the worker the tools it runs here`,
      );
    }
    tools.set(tool.descriptor.name, tool);
  }
  const report = (error: unknown) =>
    options.onError?.(error instanceof Error ? error : new Error(describeThrown(error)));
  const workerClient = new Redis(redisOptions(address, { blocking: true, reconnect: true }));
  const subscriber = new Redis(redisOptions(address, { blocking: true, reconnect: true }));
  workerClient.on("error", report);
  subscriber.on("error", report);

  const processor = async (
    job: Job<CallJobData, CallJobReply>,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<CallJobReply> => {
    const data = job.data;
    const toolName = isRecord(data) && typeof data.toolName === "string" ? data.toolName : "";
    const tool = tools.get(toolName);
    if (tool === undefined) {
      const names = [...tools.keys()];
      return {
        result: errorResult(
          `Tool ${toolName} is not on the workers of executor ${id}. They have: ${names.length === 0 ? "none" : names.join(", ")}.`,
        ),
        errorCode: "tool-not-found",
      };
    }
    const stop = signal ?? new AbortController().signal;
    const send = (progress: CallJobProgress) => {
      if (!stop.aborted) job.updateProgress(progress as unknown as object).catch(report);
    };
    const context: ToolCallContext = {
      toolCallId: typeof data.toolCallId === "string" ? data.toolCallId : (job.id ?? ""),
      signal: stop,
      onUpdate: (partial: ToolResult) => send({ partial }),
      log: (level, data, logger) => send({ log: logger === undefined ? { level, data } : { level, data, logger } }),
      phase: () => {},
      ...(typeof data.idempotencyKey === "string" ? { idempotencyKey: data.idempotencyKey } : {}),
    };
    const input = (isRecord(data.input) ? data.input : {}) as JsonObject;
    const outcome = await raceAbort(wrapTool(tool).run(input, context), stop);
    if (outcome === undefined) {
      return { result: errorResult(`Tool call ${toolName} was cancelled by its session`), errorCode: "aborted" };
    }
    return outcome.errorCode === undefined
      ? { result: outcome.result }
      : { result: outcome.result, errorCode: outcome.errorCode };
  };

  const worker = new Worker<CallJobData, CallJobReply>(queueName, processor, {
    connection: workerClient,
    concurrency,
    lockDuration,
    stalledInterval: Math.max(Math.floor(lockDuration / 2), 250),
    maxStalledCount: MAX_STALLED_COUNT,
    autorun: false,
  });
  worker.on("error", report);
  subscriber.on("message", (_channel: string, jobId: string) => {
    worker.cancelJob(jobId, "cancelled by its session");
  });
  await subscriber.subscribe(cancelChannel(queueName));
  void worker.run().catch(report);
  await worker.waitUntilReady();
  let running = 0;
  worker.on("active", () => running++);
  worker.on("completed", () => running--);
  worker.on("failed", () => running--);
  return {
    id,
    queue: queueName,
    address: address.shown,
    get running() {
      return running;
    },
    async close(closeOptions) {
      if (closeOptions?.force === true) worker.cancelAllJobs("the worker is stopping");
      await worker.close(closeOptions?.force === true);
      subscriber.disconnect();
      workerClient.disconnect();
    },
  };
}

/**
 * The run's outcome, or `undefined` once `signal` aborts first: a tool that ignores its signal does not hold the job.
 */
function raceAbort<T>(run: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    run.then((outcome) => {
      signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    });
  });
}
