// Remote executors: a tool's calls run in another process or on another machine, routed by policy patterns.
import type { ToolCallContext } from "./agent-tool.js";
import type { JsonObject } from "./json.js";
import type { ToolResult } from "./result.js";

/** One call handed to a remote executor: the tool's name, the call's id, and the input hooks and policy left. */
export interface RemoteToolCall {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
}

/**
 * Runs tool calls somewhere else (another process, another machine), for the registry's `executors`. Descriptors,
 * policy, hooks and approvals stay in the session; only the execution moves. `execute` gets the call's context:
 * it must stop the remote work when `context.signal` aborts, pass progress to `context.onUpdate`, and resolve with
 * the result, or reject (a `ToolCallError` keeps its code; anything else is `execution-failed`).
 */
export interface RemoteExecutor {
  /** The executor's id, as `toolwire plan` shows where a tool runs. */
  readonly id: string;
  /** Where it runs, in a few words for people (such as `bullmq redis://127.0.0.1:6379 queue toolwire`). */
  readonly where?: string;
  execute(call: RemoteToolCall, context: ToolCallContext): Promise<ToolResult>;
}

/** A registry route: the tools matching `tools` (policy patterns) run on `executor`. */
export interface ToolExecutorRoute {
  readonly executor: RemoteExecutor;
  /** Policy patterns (names, globs, `group:*`, `mcp:<id>`, `plugin:<id>`). */
  readonly tools: readonly string[];
}
