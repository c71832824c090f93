// One error class per family, each with a stable kebab-case `code` a program can switch on.
import type { SessionErrorCode, ToolCallErrorCode } from "./types.js";

export type ToolPlanContractErrorCode = "duplicate-tool-name" | "missing-executor" | "invalid-descriptor";

/** A descriptor set that breaks the planner's contract. Thrown, never turned into a hidden entry. */
export class ToolPlanContractError extends Error {
  override readonly name = "ToolPlanContractError";
  constructor(
    readonly code: ToolPlanContractErrorCode,
    readonly toolName: string,
    message: string,
  ) {
    super(message);
  }
}

export type ToolDefinitionErrorCode = "invalid-tool-definition" | "invalid-schema";

/** A tool defined wrongly: a bad name, a schema that is not an object schema, a missing `execute`. */
export class ToolDefinitionError extends Error {
  override readonly name = "ToolDefinitionError";
  constructor(
    readonly code: ToolDefinitionErrorCode,
    readonly toolName: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why one tool call failed. Never escapes `dispatch`: it becomes an error result whose text is
 * this message, written for the model (what was wrong, what was expected, what to do next).
 */
export class ToolCallError extends Error {
  override readonly name = "ToolCallError";
  constructor(
    readonly code: ToolCallErrorCode,
    readonly toolName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A `ToolCallError` without a stack trace, for refusals made on the dispatch path (unknown tool, bad
 * input, blocked): the message is what matters, and capturing a stack was half the cost of a refused call.
 */
export function toolCallRefusal(code: ToolCallErrorCode, toolName: string, message: string): ToolCallError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ToolCallError(code, toolName, message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Trouble that did not stop a call (an after hook threw, a listener threw), sent to `error` listeners. */
export class SessionError extends Error {
  override readonly name = "SessionError";
  constructor(
    readonly code: SessionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The message of anything thrown, Error or not. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === "string") return thrown;
  if (thrown === undefined) return "undefined";
  try {
    const json = JSON.stringify(thrown);
    if (json !== undefined) return json;
  } catch {
    // circular or BigInt: fall through
  }
  try {
    return String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}
