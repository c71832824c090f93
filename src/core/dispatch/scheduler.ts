// Runs one call or a batch: results always in the calls' source order, one per call, never a rejection.
// Each function takes the call's ending, so `dispatch` (a block) and `dispatchDetailed` (an outcome) share one pipeline.
import type { DispatchOptions, ToolUse } from "../types.js";
import {
  approveToolCall,
  type CallEnding,
  type CallInfo,
  type CallRuntime,
  executePreparedToolCall,
  internalFailure,
  type PreparedCall,
  pauseToolCall,
  prepareToolCall,
  refuseToolCall,
  startToolCall,
} from "./call.js";

/** One call through its whole life. Never rejects. */
export function runToolCall<T>(
  runtime: CallRuntime,
  toolUse: ToolUse,
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T> {
  let info: CallInfo | undefined;
  try {
    info = startToolCall(runtime, toolUse, options?.traceContext);
    const prepared = prepareToolCall(runtime, info, options?.signal);
    if (prepared instanceof Promise) {
      const started = info;
      return prepared
        .then((call) => completePrepared(runtime, call, options, performance.now(), ending))
        .catch((error: unknown) => internalFailure(runtime, started, toolUse, error, ending));
    }
    const done = completePrepared(runtime, prepared, options, info.started, ending); // prepared at once: no time has passed
    return done instanceof Promise ? done : Promise.resolve(done);
  } catch (error) {
    return Promise.resolve(internalFailure(runtime, info, toolUse, error, ending));
  }
}

/**
 * Runs a prepared call's executor, its timeout counted from `executorStart` (a `performance.now()` reading). A promise
 * it returns never rejects (a fault inside toolwire is the call's error result), so callers add no `.catch` per call.
 */
function completePrepared<T>(
  runtime: CallRuntime,
  prepared: PreparedCall,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
): T | Promise<T> {
  if (prepared.kind !== "ready") return endUnrun(runtime, prepared, ending);
  const approving = approveToolCall(runtime, prepared, options);
  if (approving === undefined) return executePreparedToolCall(runtime, prepared, options, executorStart, ending);
  if (!(approving instanceof Promise)) return endUnrun(runtime, approving, ending); // paused at once
  // The executor starts once a person said yes: its timeout counts from then, not from the question.
  return approving
    .then((approved) =>
      approved.kind === "ready"
        ? executePreparedToolCall(runtime, approved, options, performance.now(), ending)
        : endUnrun(runtime, approved, ending),
    )
    .catch((error: unknown) => internalFailure(runtime, prepared.info, undefined, error, ending));
}

/** Ends a call that did not reach its executor: refused, or paused for approval. */
function endUnrun<T>(runtime: CallRuntime, call: PreparedCall, ending: CallEnding<T>): T {
  if (call.kind === "paused") return pauseToolCall(runtime, call, ending);
  if (call.kind === "refused") return refuseToolCall(runtime, call, ending);
  throw new Error("endUnrun: the call is ready to run"); // a fault in toolwire: internalFailure answers it
}

/**
 * A batch in parallel mode: before hooks run one call at a time, then the executors run together,
 * except tools with `executionMode: "sequential"`, which wait for the running ones and run alone.
 */
export async function runToolCallsInParallel<T>(
  runtime: CallRuntime,
  toolUses: readonly ToolUse[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  if (toolUses.length === 1) return [await runToolCall(runtime, toolUses[0] as ToolUse, options, ending)];
  const prepared: (PreparedCall | { readonly ended: T })[] = [];
  for (const toolUse of toolUses) {
    let info: CallInfo | undefined;
    try {
      info = startToolCall(runtime, toolUse, options?.traceContext);
      const pending = prepareToolCall(runtime, info, options?.signal);
      const call = pending instanceof Promise ? await pending : pending; // synchronous unless a hook is async
      prepared.push(call.kind === "refused" ? { ended: refuseToolCall(runtime, call, ending) } : call); // refused calls end at once
    } catch (error) {
      prepared.push({ ended: internalFailure(runtime, info, toolUse, error, ending) });
    }
  }
  return completeInParallel(runtime, prepared, options, ending);
}

/**
 * Runs prepared calls' executors together, except tools with `executionMode: "sequential"`, which wait
 * for the running ones and run alone. Results in the calls' order.
 */
export async function completeInParallel<T>(
  runtime: CallRuntime,
  prepared: readonly (PreparedCall | { readonly ended: T })[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  const results: (T | Promise<T>)[] = [];
  let running: unknown[] = [];
  const executorsStart = performance.now(); // the parallel executors start now, after every preparation
  for (const call of prepared) {
    if ("ended" in call) {
      results.push(call.ended);
      continue;
    }
    if (call.kind === "ready" && call.tool.executionMode === "sequential") {
      await Promise.all(running); // the running ones finish first...
      running = [];
      const result = completeSafely(runtime, call, options, performance.now(), ending);
      results.push(result);
      await result; // ...and nothing else starts until this one is done
    } else {
      const result = completeSafely(runtime, call, options, executorsStart, ending);
      results.push(result);
      running.push(result);
    }
  }
  return Promise.all(results);
}

/** Runs prepared calls one after the other, each to its end before the next starts. */
export async function completeInSequence<T>(
  runtime: CallRuntime,
  prepared: readonly PreparedCall[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const call of prepared) results.push(await completeSafely(runtime, call, options, performance.now(), ending));
  return results;
}

/** Completes a prepared call; a fault inside toolwire becomes that call's error result. Never throws or rejects. */
function completeSafely<T>(
  runtime: CallRuntime,
  call: PreparedCall,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
): T | Promise<T> {
  try {
    return completePrepared(runtime, call, options, executorStart, ending);
  } catch (error) {
    return internalFailure(runtime, call.info, undefined, error, ending);
  }
}

/** A batch in sequential mode: each call's whole life before the next starts. */
export async function runToolCallsInSequence<T>(
  runtime: CallRuntime,
  toolUses: readonly ToolUse[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const toolUse of toolUses) results.push(await runToolCall(runtime, toolUse, options, ending));
  return results;
}
