// An upstream task (io.modelcontextprotocol/tasks) followed to its end: tasks/get at the server's poll interval
// (bounded), its input requests answered with tasks/update, tasks/cancel when the call stops waiting.
import { ToolCallError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import type { ToolResult } from "../../core/types.js";
import { answerInputRequests, type InputAsker } from "./answer-input-requests.js";
import { McpConnectionError } from "./errors.js";
import type { CallResultAsSent } from "./lenient-results.js";
import type { OpenMcpClient } from "./open-mcp-client.js";

/** The poll interval when the server names none, and the bounds put on the one it names. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const MIN_POLL_INTERVAL_MS = 100;
export const MAX_POLL_INTERVAL_MS = 10_000;
/** How long a tasks/cancel sent on the way out may take. */
const CANCEL_TIMEOUT_MS = 5_000;

const ANY_OBJECT = {
  "~standard": {
    version: 1 as const,
    vendor: "toolwire",
    validate: (value: unknown) =>
      isRecord(value) ? { value } : { issues: [{ message: "the tasks result is not an object" }] },
    types: undefined as unknown as { input: unknown; output: Record<string, unknown> },
  },
};

/** What following a task needs: the connection, the per-request timeout, who answers questions, progress. */
export interface TaskFollow {
  readonly live: OpenMcpClient;
  readonly timeoutMs: number;
  readonly asker: InputAsker;
  readonly onUpdate: (partial: ToolResult) => void;
}

/** How long to wait before the next tasks/get: the task's `pollIntervalMs`, within the bounds; else the default. */
export function pollDelayMs(task: Readonly<Record<string, unknown>>): number {
  const asked = task.pollIntervalMs;
  if (typeof asked !== "number" || !Number.isFinite(asked)) return DEFAULT_POLL_INTERVAL_MS;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, asked));
}

/**
 * Follows the task a `tools/call` was answered with until it ends, and resolves to its result (what the call would
 * have answered). A failed or cancelled task, a question declined or left unanswered, a malformed task throw a
 * `ToolCallError`; a request that fails (the call's abort, a timeout, a lost connection) throws what the SDK threw.
 * Every way out except the task's own end sends `tasks/cancel` (without waiting for its answer).
 */
export async function followMcpTask(
  first: Readonly<Record<string, unknown>>,
  follow: TaskFollow,
): Promise<CallResultAsSent> {
  const { live, timeoutMs, asker } = follow;
  const { signal } = asker;
  const taskId = first.taskId;
  if (typeof taskId !== "string" || taskId === "") {
    throw malformed(asker, "a task without a taskId");
  }
  const answered = new Set<string>();
  let shown = "";
  let task = first;
  try {
    for (;;) {
      const status = task.status;
      const seen = `${String(status)}${typeof task.statusMessage === "string" ? `: ${task.statusMessage}` : ""}`;
      if (seen !== shown) {
        shown = seen;
        follow.onUpdate({ content: [{ type: "text", text: `task ${taskId} ${seen}` }], details: { taskId, status } });
      }
      if (status === "completed") {
        if (!isRecord(task.result)) throw malformed(asker, `completed task ${taskId} without a result`);
        return task.result as CallResultAsSent;
      }
      if (status === "failed" || status === "cancelled") throw ended(asker, taskId, task);
      if (status === "input_required") {
        const requests = isRecord(task.inputRequests) ? task.inputRequests : {};
        const answer = await answerInputRequests(requests, asker, answered);
        if ("error" in answer) throw answer.error;
        const keys = Object.keys(answer.responses);
        if (keys.length > 0) {
          await live.client.request(
            { method: "tasks/update", params: { taskId, inputResponses: answer.responses } },
            ANY_OBJECT,
            { signal, timeout: timeoutMs },
          );
          for (const key of keys) answered.add(key);
        }
      } else if (status !== "working") {
        throw malformed(asker, `task ${taskId} in an unknown status ${JSON.stringify(status)}`);
      }
      await sleep(pollDelayMs(task), signal);
      task = await live.client.request({ method: "tasks/get", params: { taskId } }, ANY_OBJECT, {
        signal,
        timeout: timeoutMs,
      });
    }
  } catch (error) {
    if (!isTaskEnd(error)) {
      live.client
        .request({ method: "tasks/cancel", params: { taskId } }, ANY_OBJECT, { timeout: CANCEL_TIMEOUT_MS })
        .catch(() => undefined);
    }
    throw error;
  }
}

/** The error of a task that ended failed or cancelled: the server's own end, nothing to cancel. */
class TaskEndError extends ToolCallError {}

function isTaskEnd(error: unknown): boolean {
  return error instanceof TaskEndError;
}

function ended(asker: InputAsker, taskId: string, task: Readonly<Record<string, unknown>>): ToolCallError {
  const { serverId, name, toolName } = asker;
  const note = typeof task.statusMessage === "string" ? ` (${task.statusMessage})` : "";
  let what: string;
  if (task.status === "cancelled") {
    what = `was cancelled by the server${note}`;
  } else {
    const error = isRecord(task.error) ? task.error : {};
    const reason = typeof error.message === "string" ? error.message : "no reason given";
    const code = typeof error.code === "number" ? ` (MCP error ${error.code})` : "";
    what = `failed: ${reason}${code}${note}`;
  }
  const message = `MCP server ${serverId} ran the call to ${toolName} as task ${taskId}, which ${what}.`;
  const cause = new McpConnectionError("mcp-task-failed", serverId, message);
  return new TaskEndError("execution-failed", name, message, { cause });
}

function malformed(asker: InputAsker, what: string): ToolCallError {
  const { serverId, name, toolName } = asker;
  const message = `MCP server ${serverId} answered the call to ${toolName} with ${what}. This is a fault of the server, not of your call.`;
  const cause = new McpConnectionError("mcp-protocol-error", serverId, message);
  return new ToolCallError("execution-failed", name, message, { cause });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
