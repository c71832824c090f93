// Hooks: what runs before and after an executor, and the write lock that lets one holder run at a time.
import type { ToolDescriptor } from "./descriptor.js";
import type { JsonObject } from "./json.js";
import type { ContentBlock, ToolResult } from "./result.js";

/** What a before hook sees: the call, its validated input, and the tool's descriptor. */
export interface BeforeToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}
/** A before hook's answer: allow (`undefined`), run with another input, or block with a reason for the model. */
type BeforeToolCallDecision = undefined | { input: JsonObject } | { block: true; reason?: string };
/**
 * Runs before the executor: allow (`undefined`), rewrite (`{ input }`, validated again) or block (`{ block: true }` or
 * a throw).
 */
export type BeforeToolCall = (
  event: BeforeToolCallEvent,
) => BeforeToolCallDecision | void | Promise<BeforeToolCallDecision | void>;

/** What an after hook sees: the call, its input, its result, and how long it took. */
export interface AfterToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  readonly result: ToolResult;
  readonly isError: boolean;
  readonly durationMs: number;
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}
/** An after hook's answer: the fields of the result to replace, or `undefined` to keep it as it is. */
type AfterToolCallPatch = undefined | { content?: ContentBlock[]; details?: unknown; isError?: boolean };
/** Runs after the executor: each returned field replaces the result's. A throw leaves the result as it was. */
export type AfterToolCall = (
  event: AfterToolCallEvent,
) => AfterToolCallPatch | void | Promise<AfterToolCallPatch | void>;

/** Runs `run` while no other holder runs; releases on settle, including a throw. */
export type WriteLock = <T>(run: () => Promise<T>) => Promise<T>;
