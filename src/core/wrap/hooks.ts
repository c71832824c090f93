// Hook chains: before hooks allow, rewrite or block; after hooks patch the result. Both run inside the write lock.

import { copyJson } from "../copy-json.js";
import { describeThrown, SessionError } from "../errors.js";
import { isRecord } from "../json.js";
import { isContentArray } from "../tool-result.js";
import type { AfterToolCall, BeforeToolCall, JsonObject, ToolDescriptor, ToolResult } from "../types.js";

/** What the before chain decided. */
type BeforeChainOutcome =
  | { readonly kind: "allow"; readonly input: JsonObject }
  | { readonly kind: "block"; readonly reason: string }
  /**
   * A hook replaced the input with something that is not an object (`problem` absent) or fails the schema (`problem`:
   * what `validate` said).
   */
  | { readonly kind: "invalid-rewrite"; readonly value: unknown; readonly problem?: unknown };

/** Checks a rewritten input: the input as it will run, or the problem with it. */
type RewriteCheck = (input: JsonObject) => { readonly input: JsonObject } | { readonly problem: unknown };

const DEFAULT_BLOCK_REASON = "blocked by a beforeToolCall hook";

/** Whether a value is a promise or promise-like. Never throws (a `then` getter that throws means no). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    return value instanceof Promise || typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false; // a revoked proxy, or a `then` getter that throws
  }
}

/** Races a pending hook against `timeoutMs`. */
export function settleHook<T>(value: PromiseLike<T>, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not settle within ${timeoutMs} ms`)), timeoutMs);
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(value);
    } catch (error) {
      clearTimeout(timer); // a promise whose `constructor` getter throws
      reject(error);
      return;
    }
    pending.then(
      (settled) => {
        clearTimeout(timer);
        resolve(settled);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function blockFor(error: unknown): BeforeChainOutcome {
  const message = error instanceof Error ? error.message : describeThrown(error);
  return { kind: "block", reason: message.trim() === "" ? DEFAULT_BLOCK_REASON : message };
}

interface BeforeEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
  readonly parentToolCallId?: string;
}

/**
 * Runs before hooks in order, each seeing the input the one before left. The first block (or throw,
 * rejection or timeout) stops the chain. `validate` checks a rewritten input and returns it
 * normalized, or the problem with it; then the chain stops with `invalid-rewrite` carrying it.
 * A hook that returns a plain value is not waited for with a timer.
 */
export async function runBeforeHooks(
  hooks: readonly BeforeToolCall[],
  event: BeforeEvent,
  hookTimeoutMs: number,
  validate: RewriteCheck,
): Promise<BeforeChainOutcome> {
  let input = event.input;
  for (const hook of hooks) {
    let decision: unknown;
    try {
      const { toolName, toolCallId, descriptor, parentToolCallId } = event;
      decision = hook(
        parentToolCallId === undefined
          ? { toolName, toolCallId, input, descriptor }
          : { toolName, toolCallId, input, descriptor, parentToolCallId },
      );
      if (isThenable(decision)) decision = await settleHook(decision, hookTimeoutMs, "A beforeToolCall hook");
    } catch (error) {
      return blockFor(error);
    }
    const applied = applyDecision(decision, input, validate);
    if ("kind" in applied) return applied;
    input = applied.input;
  }
  return { kind: "allow", input };
}

function applyDecision(
  hookDecision: unknown,
  input: JsonObject,
  validate: RewriteCheck,
): BeforeChainOutcome | { readonly input: JsonObject } {
  if (typeof hookDecision !== "object" || hookDecision === null) return { input };
  const copied = copyJson(hookDecision, "the decision"); // read once, as plain data: no getter runs after this
  if (!copied.ok)
    return { kind: "block", reason: `a beforeToolCall hook returned an unreadable decision: ${copied.problem}` };
  const decision = copied.value;
  if (!isRecord(decision)) return { input };
  if (decision.block === true) {
    const { reason } = decision;
    return {
      kind: "block",
      reason: typeof reason === "string" && reason.trim() !== "" ? reason : DEFAULT_BLOCK_REASON,
    };
  }
  if (!("input" in decision)) return { input };
  if (!isRecord(decision.input)) return { kind: "invalid-rewrite", value: decision.input };
  const checked = validate(decision.input as JsonObject);
  return "problem" in checked ? { kind: "invalid-rewrite", value: decision.input, problem: checked.problem } : checked;
}

interface AfterEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  readonly durationMs: number;
  readonly parentToolCallId?: string;
}

/**
 * Runs after hooks in order; each returned field replaces the result's. A hook that throws, rejects,
 * times out or returns invalid content leaves the result as it was and is reported through `report`.
 */
export async function runAfterHooks(
  hooks: readonly AfterToolCall[],
  event: AfterEvent,
  result: ToolResult,
  hookTimeoutMs: number,
  report: (error: SessionError) => void,
): Promise<ToolResult> {
  let current = result;
  for (const hook of hooks) {
    let patch: unknown;
    try {
      const { toolName, toolCallId, input, durationMs, parentToolCallId } = event;
      const isError = current.isError === true;
      patch = hook(
        parentToolCallId === undefined
          ? { toolName, toolCallId, input, result: current, isError, durationMs }
          : { toolName, toolCallId, input, result: current, isError, durationMs, parentToolCallId },
      );
      if (isThenable(patch)) patch = await settleHook(patch, hookTimeoutMs, "An afterToolCall hook");
    } catch (error) {
      report(
        new SessionError(
          "after-hook-failed",
          `An afterToolCall hook failed on ${event.toolName} (${event.toolCallId}): ${describeThrown(error)}`,
          { cause: error },
        ),
      );
      continue;
    }
    current = applyPatch(patch, current, event, report);
  }
  return current;
}

function applyPatch(hookPatch: unknown, result: ToolResult, event: AfterEvent, report: (error: SessionError) => void) {
  if (typeof hookPatch !== "object" || hookPatch === null) return result;
  const copied = copyJson(hookPatch, "the patch"); // read once, as plain data: no getter runs after this
  if (!copied.ok) {
    report(
      new SessionError(
        "after-hook-failed",
        `An afterToolCall hook on ${event.toolName} returned an unreadable patch (${copied.problem}); it was ignored`,
      ),
    );
    return result;
  }
  const patch = copied.value;
  if (!isRecord(patch)) return result;
  const next: ToolResult = { ...result };
  if (patch.content !== undefined) {
    if (isContentArray(patch.content)) {
      next.content = patch.content;
    } else {
      report(
        new SessionError(
          "after-hook-failed",
          `An afterToolCall hook on ${event.toolName} returned invalid content; it was ignored`,
        ),
      );
    }
  }
  if ("details" in patch) next.details = patch.details;
  if (typeof patch.isError === "boolean") next.isError = patch.isError;
  return next;
}
