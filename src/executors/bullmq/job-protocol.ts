// What travels through Redis between a session and its workers: job data, progress, the reply, names and ids.
import type { JsonObject, JsonValue, ToolCallErrorCode, ToolLogLevel, ToolResult } from "../../core/types.js";
import { ExecutorError } from "../executor-error.js";

/** A job's data: one call. */
export interface CallJobData {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  /** The call's `context.idempotencyKey` in a durable run (docs/durable-runs.md); absent otherwise. */
  readonly idempotencyKey?: string;
}

/**
 * A job's progress: one partial result of the call (`context.onUpdate` on the worker), or one log message
 * (`context.log`).
 */
export type CallJobProgress =
  | { readonly partial: ToolResult }
  | { readonly log: { readonly level: ToolLogLevel; readonly data: JsonValue; readonly logger?: string } };

/** A job's return value: the call's result, and its error code when the run failed on the worker. */
export interface CallJobReply {
  readonly result: ToolResult;
  readonly errorCode?: ToolCallErrorCode;
}

/** The queue an executor uses when its options name none. */
export function defaultQueueName(executorId: string): string {
  return `toolwire-${executorId}`;
}

/** The pub/sub channel on which sessions ask workers of `queue` to stop a job. */
export function cancelChannel(queue: string): string {
  return `toolwire:${queue}:cancel`;
}

/**
 * The job id of a call: `runId` (unique per producer) and the call's id, with `%` and `:` escaped (BullMQ
 * refuses `:` in ids), so that the same call enqueued twice is one job, and calls of other runs never collide.
 */
export function callJobId(runId: string, toolCallId: string): string {
  return `${runId}.${toolCallId.replace(/%/g, "%25").replace(/:/g, "%3A")}`;
}

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Checks an executor id and queue name; throws `ExecutorError` `invalid-executor` for a bad one. */
export function checkExecutorNames(id: unknown, queue: unknown): void {
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw new ExecutorError(
      "invalid-executor",
      `An executor id must be 1 to 64 letters, digits, _, . or -, got ${JSON.stringify(id)}`,
    );
  }
  if (queue !== undefined && (typeof queue !== "string" || !ID_PATTERN.test(queue))) {
    throw new ExecutorError(
      "invalid-executor",
      `Executor ${id}: a queue name must be 1 to 64 letters, digits, _, . or -, got ${JSON.stringify(queue)}`,
    );
  }
}
