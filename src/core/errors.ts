// One error family: a `ToolwireError` base, and one class per kind of trouble, each with a stable kebab-case `code`.
import type { SessionErrorCode, ToolCallErrorCode } from "./types.js";

/** The mark every toolwire error carries, shared by every copy of the package loaded in one process. */
const TOOLWIRE_ERROR = Symbol.for("toolwire.error");

/**
 * The base of every error toolwire throws or hands to a listener. `code` is a stable kebab-case string a program
 * can switch on (every code is listed in docs/errors.md); `message` is written for a person and a model.
 *
 * `instanceof` also recognises errors made by another copy of toolwire in the same process (a plugin loaded by
 * path may bring its own): `error instanceof ToolwireError` holds for any toolwire error, and
 * `error instanceof ModelError` for any copy's `ModelError`. `isToolwireError` is the same test as a function.
 */
export abstract class ToolwireError<Code extends string = string> extends Error {
  /** The stable kebab-case code of what went wrong. */
  readonly code: Code;

  /** The one constructor of the family: each class adds its name and any fields of its own. */
  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of `instanceof`: the base or one of its subclasses.
    // biome-ignore lint/complexity/noThisInStatic lint/complexity/noUselessThisAlias: it is the tested class, not ToolwireError
    const tested = this;
    if (Function.prototype[Symbol.hasInstance].call(tested, value)) return true;
    // Another copy's class: the same family mark, and for a subclass the same class name.
    return isToolwireError(value) && (tested === ToolwireError || value.name === tested.name);
  }
}
Object.defineProperty(ToolwireError.prototype, TOOLWIRE_ERROR, { value: true });

/** Whether `value` is an error of toolwire's family, made by this copy of the package or any other. */
export function isToolwireError(value: unknown): value is ToolwireError {
  return (
    typeof value === "object" && value !== null && (value as { [TOOLWIRE_ERROR]?: unknown })[TOOLWIRE_ERROR] === true
  );
}

/** Codes of `ToolPlanContractError` (docs/errors.md says what each means). */
export type ToolPlanContractErrorCode = "duplicate-tool-name" | "missing-executor" | "invalid-descriptor";

/** A descriptor set that breaks the planner's contract. Thrown, never turned into a hidden entry. */
export class ToolPlanContractError extends ToolwireError<ToolPlanContractErrorCode> {
  override readonly name = "ToolPlanContractError";
  constructor(
    code: ToolPlanContractErrorCode,
    readonly toolName: string,
    message: string,
  ) {
    super(code, message);
  }
}

/** Codes of `ToolDefinitionError`: a bad name or definition, or a schema that is not an object schema. */
export type ToolDefinitionErrorCode = "invalid-tool-definition" | "invalid-schema";

/** A tool defined wrongly: a bad name, a schema that is not an object schema, a missing `execute`. */
export class ToolDefinitionError extends ToolwireError<ToolDefinitionErrorCode> {
  override readonly name = "ToolDefinitionError";
  constructor(
    code: ToolDefinitionErrorCode,
    readonly toolName: string,
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * Why one tool call failed. Never escapes `dispatch`: it becomes an error result whose text is
 * this message, written for the model (what was wrong, what was expected, what to do next).
 */
export class ToolCallError extends ToolwireError<ToolCallErrorCode> {
  override readonly name = "ToolCallError";
  constructor(
    code: ToolCallErrorCode,
    readonly toolName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
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
export class SessionError extends ToolwireError<SessionErrorCode> {
  override readonly name = "SessionError";
}

/** Codes of `ApprovalError` (see the class). */
export type ApprovalErrorCode = "approval-state-invalid" | "approval-unknown" | "approval-used";

/**
 * A paused run that cannot be resumed as asked: its state's signature does not verify
 * (`approval-state-invalid`), a decision names no pending approval (`approval-unknown`), or an approval
 * was already decided, here or in another process (`approval-used`). Nothing of the state ran.
 */
export class ApprovalError extends ToolwireError<ApprovalErrorCode> {
  override readonly name = "ApprovalError";
  constructor(
    code: ApprovalErrorCode,
    message: string,
    readonly approvalId?: string,
  ) {
    super(code, message);
  }
}

/** Codes of `ToolPinError` (see the class). */
export type ToolPinErrorCode = "definition-not-pending" | "pins-write-failed";

/**
 * Pinned tool definitions (docs/pins.md): `acceptToolDefinition` named a tool that is not hidden with
 * `definition-changed` (`definition-not-pending`), or the pins file could not be written (`pins-write-failed`).
 */
export class ToolPinError extends ToolwireError<ToolPinErrorCode> {
  override readonly name = "ToolPinError";
  constructor(
    code: ToolPinErrorCode,
    message: string,
    readonly toolName?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The most characters `describeThrown` returns: a thrown value can be as large as its thrower likes. */
const MAX_DESCRIBED_CHARS = 2_000;

/**
 * The message of anything thrown, Error or not, cut to `MAX_DESCRIBED_CHARS`. Never throws, whatever
 * the value is: a revoked proxy, an object whose getters or `toString` throw, a BigInt, a cycle.
 */
export function describeThrown(thrown: unknown): string {
  return cutText(describeUnbounded(thrown), MAX_DESCRIBED_CHARS);
}

/** `text` itself when it has at most `max` characters, else its head and a note of how much was cut. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function describeUnbounded(thrown: unknown): string {
  if (typeof thrown === "string") return thrown;
  if (thrown === undefined) return "undefined";
  try {
    if (thrown instanceof Error) {
      const message = thrown.message;
      if (typeof message === "string" && message !== "") return message;
      const name = thrown.name;
      return typeof name === "string" && name !== "" ? name : "Error";
    }
  } catch {
    return "an error that cannot be read";
  }
  try {
    const json = JSON.stringify(thrown);
    if (json !== undefined) return json;
  } catch {
    // circular, BigInt, or a throwing getter: fall through
  }
  try {
    return String(thrown);
  } catch {
    try {
      return Object.prototype.toString.call(thrown);
    } catch {
      return "a value that cannot be read";
    }
  }
}
