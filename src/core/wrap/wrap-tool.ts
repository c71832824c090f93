// Wraps a tool once: error capture and result normalization (the session adds hooks and timing around it). Wrapping a
// wrapper returns it unchanged.

import { describeThrown, ToolCallError } from "../errors.js";
import { errorResult as errorText, normalizeToolResult } from "../tool-result.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolCallErrorCode, ToolResult } from "../types.js";
import { isThenable } from "./hooks.js";

/** What running a wrapped tool gave: always a result, and the error code when the run failed. */
export interface ToolOutcome {
  readonly result: ToolResult;
  readonly errorCode?: ToolCallErrorCode;
}

/** A tool whose `execute` never throws and always returns a well-formed `ToolResult`. */
export interface WrappedTool extends AgentTool {
  readonly unwrapped: AgentTool;
  /** Runs the tool, capturing throws and malformed results as error outcomes. Never rejects. */
  run(input: JsonObject, context: ToolCallContext): Promise<ToolOutcome>;
  /**
   * `run` for a caller that races the executor against a timeout: hands the outcome to `settle`, at once when
   * the executor returns a plain value, else when its promise settles. Never throws; calls `settle` once.
   */
  start(input: JsonObject, context: ToolCallContext, settle: (outcome: ToolOutcome) => void): void;
}

const wrappers = new WeakMap<AgentTool, WrappedTool>();
const wrapped = new WeakSet<AgentTool>();

/** Whether a tool is already a wrapper. */
export function isWrappedTool(tool: AgentTool): tool is WrappedTool {
  return wrapped.has(tool);
}

/** The one wrapper of a tool: the same object however often it is asked for. */
export function wrapTool(tool: AgentTool): WrappedTool {
  if (wrapped.has(tool)) return tool as WrappedTool;
  const known = wrappers.get(tool);
  if (known !== undefined) return known;
  const name = tool.descriptor.name;
  const outcomeOf = (value: unknown): ToolOutcome => {
    const result = normalizeToolResult(value); // never throws: a hostile value becomes a problem text
    if (typeof result !== "string") return { result };
    return {
      result: errorText(
        `Tool ${name} returned an invalid result: ${result}. This is a fault in the tool, not in your call.`,
      ),
      errorCode: "invalid-result",
    };
  };
  const start = (input: JsonObject, context: ToolCallContext, settle: (outcome: ToolOutcome) => void): void => {
    let value: unknown;
    let pending: Promise<unknown>;
    try {
      value = tool.execute(input, context);
      // Only a promise is waited for: reading any other value's `then` could run hostile code.
      if (!isThenable(value)) {
        settle(outcomeOf(value));
        return;
      }
      pending = Promise.resolve(value);
    } catch (error) {
      settle(failedOutcome(name, error));
      return;
    }
    pending.then(
      (settled) => settle(outcomeOf(settled)),
      (error: unknown) => settle(failedOutcome(name, error)),
    );
  };
  const run = (input: JsonObject, context: ToolCallContext): Promise<ToolOutcome> =>
    new Promise((resolve) => start(input, context, resolve));
  const wrapper: WrappedTool = Object.freeze({
    descriptor: tool.descriptor,
    executionMode: tool.executionMode,
    timeoutMs: tool.timeoutMs,
    maxResultChars: tool.maxResultChars,
    idempotent: tool.idempotent,
    replay: tool.replay,
    // Every field written, undefined or not: a spread would give wrappers of different tools different shapes.
    runsOn: tool.runsOn,
    unwrapped: tool,
    run,
    start,
    execute: async (input: JsonObject, context: ToolCallContext) => (await run(input, context)).result,
  });
  wrapped.add(wrapper);
  wrappers.set(tool, wrapper);
  return wrapper;
}

/** The outcome of an executor that threw: its own `ToolCallError`, or `execution-failed` with what it threw. */
function failedOutcome(name: string, error: unknown): ToolOutcome {
  if (isToolCallError(error)) return { result: errorText(error.message), errorCode: error.code };
  return { result: errorText(`Tool ${name} failed: ${describeThrown(error)}`), errorCode: "execution-failed" };
}

/** `instanceof`, guarded: on a revoked proxy it throws, and an error's fields can be getters. */
function isToolCallError(error: unknown): error is ToolCallError {
  try {
    return error instanceof ToolCallError && typeof error.message === "string" && typeof error.code === "string";
  } catch {
    return false;
  }
}
