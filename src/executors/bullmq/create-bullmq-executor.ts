// The session side of remote executors (docs/workers.md): a RemoteExecutor that runs each call as one BullMQ job and
// waits for its one reply.
import { randomUUID } from "node:crypto";
import { Job, Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { describeThrown, ToolCallError, toolCallRefusal } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type {
  JsonValue,
  RemoteExecutor,
  RemoteToolCall,
  ToolCallContext,
  ToolCallErrorCode,
  ToolLogLevel,
  ToolResult,
} from "../../core/types.js";
import {
  type CallJobData,
  type CallJobReply,
  callJobId,
  cancelChannel,
  checkExecutorNames,
  defaultQueueName,
} from "./job-protocol.js";
import { parseRedisAddress } from "./parse-redis-address.js";
import { redisOptions } from "./redis-options.js";

/** Options of `createBullmqExecutor`. */
export interface BullmqExecutorOptions {
  /** The executor's id (letters, digits, `_`, `.`, `-`), as errors and `toolwire plan` name it. */
  readonly id: string;
  /** `redis://[user:password@]HOST:PORT[/db]`, or `rediss://` for TLS. */
  readonly connection: string;
  /** The BullMQ queue; default `toolwire-<id>`. Workers of the same queue take its calls. */
  readonly queue?: string;
  /** How long a call waits for Redis to answer before it ends with an error result. Default 2000 ms. */
  readonly connectTimeoutMs?: number;
  /** How long a finished job is kept in Redis, so a retried enqueue of the same call gets its reply. Default 3600 s. */
  readonly keepFinishedSeconds?: number;
}

/** A `RemoteExecutor` over BullMQ, and `close` to let go of its Redis connections. */
export interface BullmqExecutor extends RemoteExecutor {
  /** The queue its calls go to. */
  readonly queue: string;
  /** The Redis address, without its password. */
  readonly address: string;
  /** Ends every waiting call with an error result and closes the connections. Later calls reconnect. */
  close(): Promise<void>;
}

/** One call waiting for its job's reply. */
interface Waiter {
  readonly toolName: string;
  readonly context: ToolCallContext;
  readonly enqueuedAt: number;
  resolve(result: ToolResult): void;
  reject(error: ToolCallError): void;
}

/**
 * The producer's link to Redis, as a small state machine: `connecting` (clients made, not yet answered), `ready`
 * (the queue and its events listen), `broken` (a wait for Redis failed: thrown away, the next call makes a new one).
 */
interface Link {
  state: "connecting" | "ready" | "broken";
  readonly queue: Queue;
  readonly events: QueueEvents;
  readonly clients: readonly Redis[];
  readonly ready: Promise<void>;
  lastError: string | undefined;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
const DEFAULT_KEEP_FINISHED_SECONDS = 3_600;

/**
 * A remote executor whose calls run as BullMQ jobs on `toolwire worker` processes (or `startBullmqWorker`) of the
 * same queue, on any machine that reaches the Redis. Connects on the first call; the queue and its events stream
 * are shared by all calls. One job per call, its id made of a per-executor run id and the call's id, so a retried
 * enqueue of the same call is the same job. Progress from the worker reaches `context.onUpdate`; the time a job
 * waited for a worker is reported as the phase `queued_remote`; an abort or timeout of the call stops the job on
 * its worker (or removes it while it waits) and ends the call at once. When Redis does not answer within
 * `connectTimeoutMs`, or the connection drops while a call waits, the call ends with an `execution-failed` error
 * naming the executor and the address; the next call tries again. A job that stalled twice (its worker died, and
 * then the one that took it over) ends its call with an error naming the executor. Throws `ExecutorError`
 * `invalid-executor` for a bad id, queue or connection.
 */
export function createBullmqExecutor(options: BullmqExecutorOptions): BullmqExecutor {
  checkExecutorNames(options.id, options.queue);
  const { id } = options;
  const address = parseRedisAddress(options.connection, id);
  const queueName = options.queue ?? defaultQueueName(id);
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const keepSeconds = options.keepFinishedSeconds ?? DEFAULT_KEEP_FINISHED_SECONDS;
  const runId = randomUUID();
  const waiting = new Map<string, Waiter[]>();
  let link: Link | undefined;

  const unreachable = (toolName: string, why: string) =>
    toolCallRefusal(
      "execution-failed",
      toolName,
      `Tool ${toolName} could not run: executor ${id} cannot reach Redis at ${address.shown} (${why}). The call did not run; try again in a while.`,
    );

  const finish = (jobId: string, outcome: { reply: unknown } | { failure: string }) => {
    const waiters = waiting.get(jobId);
    if (waiters === undefined) return;
    waiting.delete(jobId);
    for (const waiter of waiters) {
      if ("reply" in outcome) settleWithReply(waiter, outcome.reply, id);
      else waiter.reject(failedJobError(waiter.toolName, id, outcome.failure));
    }
  };

  const failAll = (why: (toolName: string) => ToolCallError) => {
    const all = [...waiting.values()].flat();
    waiting.clear();
    for (const waiter of all) waiter.reject(why(waiter.toolName));
  };

  const open = (): Link => {
    const clients: Redis[] = [];
    const client = (blocking: boolean) => {
      const made = new Redis(redisOptions(address, { blocking, reconnect: false, connectTimeoutMs }));
      made.on("error", (error: Error) => {
        if (opened.state !== "broken") opened.lastError = describeThrown(error.message);
      });
      clients.push(made);
      return made;
    };
    const queue = new Queue(queueName, { connection: client(false) });
    const eventsClient = client(true);
    const events = new QueueEvents(queueName, { connection: eventsClient });
    queue.on("error", () => {}); // the clients' own listeners record what went wrong
    events.on("error", () => {});
    events.on("completed", ({ jobId, returnvalue }) => finish(jobId, { reply: returnvalue }));
    events.on("failed", ({ jobId, failedReason }) => finish(jobId, { failure: failedReason }));
    events.on("progress", ({ jobId, data }) => {
      if (!isRecord(data)) return;
      const { partial, log } = data;
      for (const waiter of waiting.get(jobId) ?? []) {
        // The session's context checks both as it does a local tool's: a malformed one is dropped.
        if (isRecord(partial)) waiter.context.onUpdate(partial as unknown as ToolResult);
        else if (isRecord(log)) {
          waiter.context.log?.(log.level as ToolLogLevel, log.data as JsonValue, log.logger as string | undefined);
        }
      }
    });
    events.on("active", ({ jobId }) => {
      for (const waiter of waiting.get(jobId) ?? []) waiter.context.phase?.("queued_remote", waiter.enqueuedAt);
    });
    events.on("duplicated", ({ jobId }) => {
      // The same call was enqueued before: it may have finished already, when no event will come for it.
      void Job.fromId(queue, jobId).then(
        (job) => {
          if (job?.finishedOn === undefined) return;
          if (job.failedReason !== undefined && job.returnvalue == null) finish(jobId, { failure: job.failedReason });
          else finish(jobId, { reply: job.returnvalue });
        },
        () => {},
      );
    });
    eventsClient.on("close", () => {
      if (opened.state !== "ready") return;
      failAll((toolName) =>
        toolCallRefusal(
          "execution-failed",
          toolName,
          `Tool ${toolName} did not finish: executor ${id} lost its connection to Redis at ${address.shown} while the call waited. It may have run on a worker; check before you try again.`,
        ),
      );
    });
    const opened: Link = {
      state: "connecting",
      queue,
      events,
      clients,
      ready: Promise.all([queue.waitUntilReady(), events.waitUntilReady()]).then(() => {
        if (opened.state === "connecting") opened.state = "ready";
      }),
      lastError: undefined,
    };
    opened.ready.catch(() => {});
    return opened;
  };

  const discard = (old: Link) => {
    old.state = "broken";
    if (link === old) link = undefined;
    void closeLink(old);
  };

  /** The link once it is ready, or an `unreachable` error after `connectTimeoutMs` (or the call's abort). */
  const connected = async (toolName: string, signal: AbortSignal): Promise<Link> => {
    // A link whose connection ended (Redis went away) is replaced: its clients do not reconnect by themselves.
    if (link?.clients.some((client) => client.status === "end")) discard(link);
    link ??= open();
    const current = link;
    if (current.state === "ready" && current.clients.every((client) => client.status === "ready")) return current;
    const waited = await waitUntil(current.ready, connectTimeoutMs, signal);
    if (waited.kind === "ready" && current.clients.every((client) => client.status === "ready")) return current;
    if (waited.kind === "aborted") throw toolCallRefusal("aborted", toolName, `Tool call ${toolName} aborted`);
    discard(current);
    const failure = waited.kind === "failed" ? describeThrown(messageOf(waited.reason)) : undefined;
    const statuses = current.clients.map((client) => client.status).join(", ");
    throw unreachable(
      toolName,
      current.lastError ?? failure ?? `no answer within ${connectTimeoutMs} ms; connections ${statuses}`,
    );
  };

  const cancel = (current: Link, jobId: string) => {
    const [commands] = current.clients as [Redis];
    commands.publish(cancelChannel(queueName), jobId).catch(() => {});
    current.queue.remove(jobId).catch(() => {}); // only a job no worker holds yet; a held one is stopped by the message
  };

  return {
    id,
    where: `bullmq ${address.shown} queue ${queueName}`,
    queue: queueName,
    address: address.shown,
    async execute(call: RemoteToolCall, context: ToolCallContext): Promise<ToolResult> {
      const { toolName } = call;
      const { signal } = context;
      const current = await connected(toolName, signal);
      const jobId = callJobId(runId, call.toolCallId);
      return new Promise<ToolResult>((resolve, reject) => {
        const onAbort = () => {
          const waiters = waiting.get(jobId)?.filter((other) => other !== waiter) ?? [];
          if (waiters.length === 0) {
            waiting.delete(jobId);
            cancel(current, jobId);
          } else waiting.set(jobId, waiters);
          reject(toolCallRefusal("aborted", toolName, `Tool call ${toolName} aborted`));
        };
        const waiter: Waiter = {
          toolName,
          context,
          enqueuedAt: performance.now(),
          resolve: (result) => {
            signal.removeEventListener("abort", onAbort);
            resolve(result);
          },
          reject: (error) => {
            signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        const others = waiting.get(jobId);
        if (others === undefined) waiting.set(jobId, [waiter]);
        else others.push(waiter);
        signal.addEventListener("abort", onAbort, { once: true });
        const { idempotencyKey } = context;
        const data: CallJobData =
          idempotencyKey === undefined
            ? { toolName, toolCallId: call.toolCallId, input: call.input }
            : { toolName, toolCallId: call.toolCallId, input: call.input, idempotencyKey };
        current.queue
          .add(toolName, data, {
            jobId,
            removeOnComplete: { age: keepSeconds },
            removeOnFail: { age: keepSeconds },
          })
          .catch((error: unknown) => {
            const waiters = waiting.get(jobId)?.filter((other) => other !== waiter) ?? [];
            if (waiters.length === 0) waiting.delete(jobId);
            else waiting.set(jobId, waiters);
            waiter.reject(unreachable(toolName, describeThrown(messageOf(error))));
          });
      });
    },
    async close() {
      failAll((toolName) =>
        toolCallRefusal("execution-failed", toolName, `Tool ${toolName} did not finish: executor ${id} was closed.`),
      );
      const old = link;
      link = undefined;
      if (old !== undefined) {
        old.state = "broken";
        await closeLink(old);
      }
    },
  };
}

/** Resolves the waiter with the worker's reply: its result, or its error with the code the worker gave. */
function settleWithReply(waiter: Waiter, reply: unknown, executorId: string): void {
  const { toolName } = waiter;
  if (!isRecord(reply) || !isRecord(reply.result)) {
    waiter.reject(
      toolCallRefusal(
        "execution-failed",
        toolName,
        `Tool ${toolName} failed: a worker of executor ${executorId} replied with something that is not a tool result. This is a fault of the worker, not of your call.`,
      ),
    );
    return;
  }
  const result = reply.result as unknown as ToolResult;
  const code = (reply as Partial<CallJobReply>).errorCode;
  if (typeof code === "string") {
    waiter.reject(new ToolCallError(code as ToolCallErrorCode, toolName, textOf(result)));
    return;
  }
  waiter.resolve(result);
}

function textOf(result: ToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content
    .map((block) => (isRecord(block) && typeof block.text === "string" ? block.text : ""))
    .filter((part) => part !== "")
    .join("\n");
  return text === "" ? "The tool failed on its worker." : text;
}

/** The error of a job BullMQ gave up on: stalled too often (its workers died), or failed outside the tool. */
function failedJobError(toolName: string, executorId: string, reason: string): ToolCallError {
  const stalled = /stalled/i.test(reason);
  return toolCallRefusal(
    "execution-failed",
    toolName,
    stalled
      ? `Tool ${toolName} did not finish: the worker of executor ${executorId} running it stopped (killed, or lost its lock), and so did the one that took it over. It may have partly run; check before you try again.`
      : `Tool ${toolName} did not finish on executor ${executorId}: ${describeThrown(reason)}`,
  );
}

/** An error's message, or the thrown value itself. */
function messageOf(thrown: unknown): unknown {
  return thrown instanceof Error ? thrown.message : thrown;
}

/** How a wait for the link ended. */
type Waited =
  | { readonly kind: "ready" | "timeout" | "aborted" }
  | { readonly kind: "failed"; readonly reason: unknown };

/** Waits for `promise`, at most `ms`, and not past an abort of `signal`. */
function waitUntil(promise: Promise<unknown>, ms: number, signal: AbortSignal): Promise<Waited> {
  if (signal.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise((resolve) => {
    const done = (how: Waited) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(how);
    };
    const onAbort = () => done({ kind: "aborted" });
    const timer = setTimeout(() => done({ kind: "timeout" }), ms);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => done({ kind: "ready" }),
      (reason: unknown) => done({ kind: "failed", reason }),
    );
  });
}

/** How long closing waits for BullMQ to let go of a connected queue before it drops the connections. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Closes the queue and its events, then drops the connections: at once when Redis is away (a reconnecting client
 * would otherwise keep the process alive), else after at most `CLOSE_GRACE_MS`.
 */
async function closeLink(link: Link): Promise<void> {
  const connected = link.clients.every((client) => client.status === "ready");
  if (!connected) for (const client of link.clients) client.disconnect();
  const closing = Promise.allSettled([link.queue.close(), link.events.close()]);
  await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
  for (const client of link.clients) client.disconnect();
}
