// A tools/call answered with a task (resultType "task", the io.modelcontextprotocol/tasks extension) handed to the
// bridge instead of refused: the SDK 2.4 client refuses every result type it does not know.
import { randomUUID } from "node:crypto";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { isRecord } from "../../core/json.js";

/** The extension's identifier, declared in the client's capabilities. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Where a task rides in a result, under a name no server can guess (it changes with every process). */
const TASK_KEY = `toolwire/task-${randomUUID()}`;
/** Calls whose answers never came (aborted, timed out) are forgotten past this many. */
const MAX_PENDING_CALLS = 1024;

/**
 * Wraps the transport of a connected client: the answer to one of its `tools/call` requests whose `resultType` is
 * `"task"` reaches the client as a complete result without content, the task under a private key (`taskOf` reads
 * it). Every other message passes unchanged.
 */
export function passTaskResults(transport: Transport): void {
  const calls = new Set<string | number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) {
      calls.add(message.id);
      if (calls.size > MAX_PENDING_CALLS) calls.delete(calls.values().next().value as string | number);
    }
    return send(message, options);
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    let passed: JSONRPCMessage = message;
    if (!("method" in message) && "id" in message && message.id !== undefined && calls.delete(message.id)) {
      if ("result" in message && isRecord(message.result) && message.result.resultType === "task") {
        passed = { ...message, result: { resultType: "complete", content: [], [TASK_KEY]: message.result } };
      }
    }
    receive?.(passed, extra);
  };
}

/** The task a `tools/call` was answered with, as the server sent it; `undefined` for any other result. */
export function taskOf(result: unknown): Record<string, unknown> | undefined {
  if (!isRecord(result)) return undefined;
  const task = result[TASK_KEY];
  return isRecord(task) ? task : undefined;
}
