// Hook chains: before hooks allow, rewrite or block; after hooks patch the result. Both run inside the write lock.

import { isContentArray } from "../dispatch/result.js";
import { describeThrown, SessionError } from "../errors.js";
import { isRecord } from "../json.js";
import type { AfterToolCall, BeforeToolCall, JsonObject, ToolDescriptor, ToolResult } from "../types.js";

/** What the before chain decided. `rewritten` is set when some hook replaced the input. */
export type BeforeChainOutcome =
  | { readonly kind: "allow"; readonly input: JsonObject; readonly rewritten: boolean }
  | { readonly kind: "block"; readonly reason: string }
  | { readonly kind: "invalid-rewrite"; readonly value: unknown };

/** Awaits a hook's value; a pending promise is raced against `timeoutMs`, a plain value costs no timer. */
export function settleHook<T>(value: T | Promise<T>, timeoutMs: number, what: string): T | Promise<T> {
  if (!(value instanceof Promise) && !isThenable(value)) return value;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not settle within ${timeoutMs} ms`)), timeoutMs);
    Promise.resolve(value).then(
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

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Runs before hooks in order, each seeing the input the one before left. The first block (or throw,
 * or timeout) stops the chain. `validate` checks a rewritten input and returns it normalized, or
 * `undefined` when it is invalid; then the chain stops with `invalid-rewrite`.
 */
export async function runBeforeHooks(
  hooks: readonly BeforeToolCall[],
  event: { toolName: string; toolCallId: string; input: JsonObject; descriptor: ToolDescriptor },
  hookTimeoutMs: number,
  validate: (input: JsonObject) => JsonObject | undefined,
): Promise<BeforeChainOutcome> {
  let input = event.input;
  let rewritten = false;
  for (const hook of hooks) {
    let decision: unknown;
    try {
      decision = await settleHook(
        hook({ toolName: event.toolName, toolCallId: event.toolCallId, input, descriptor: event.descriptor }),
        hookTimeoutMs,
        "A beforeToolCall hook",
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : describeThrown(error);
      return { kind: "block", reason: message.trim() === "" ? "blocked by a beforeToolCall hook" : message };
    }
    if (!isRecord(decision)) continue;
    if (decision.block === true) {
      const reason = typeof decision.reason === "string" && decision.reason.trim() !== "" ? decision.reason : undefined;
      return { kind: "block", reason: reason ?? "blocked by a beforeToolCall hook" };
    }
    if ("input" in decision) {
      if (!isRecord(decision.input)) return { kind: "invalid-rewrite", value: decision.input };
      const checked = validate(decision.input as JsonObject);
      if (checked === undefined) return { kind: "invalid-rewrite", value: decision.input };
      input = checked;
      rewritten = true;
    }
  }
  return { kind: "allow", input, rewritten };
}

/**
 * Runs after hooks in order; each returned field replaces the result's. A hook that throws, times
 * out or returns invalid content leaves the result as it was and is reported through `report`.
 */
export async function runAfterHooks(
  hooks: readonly AfterToolCall[],
  event: { toolName: string; toolCallId: string; input: JsonObject; durationMs: number },
  result: ToolResult,
  hookTimeoutMs: number,
  report: (error: SessionError) => void,
): Promise<ToolResult> {
  let current = result;
  for (const hook of hooks) {
    let patch: unknown;
    try {
      patch = await settleHook(
        hook({ ...event, result: current, isError: current.isError === true }),
        hookTimeoutMs,
        "An afterToolCall hook",
      );
    } catch (error) {
      report(
        new SessionError(
          "after-hook-failed",
          `An afterToolCall hook failed on ${event.toolName} (${event.toolCallId}): ${describeThrown(error)}`,
          {
            cause: error,
          },
        ),
      );
      continue;
    }
    if (!isRecord(patch)) continue;
    const next: ToolResult = { ...current };
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
    current = next;
  }
  return current;
}
