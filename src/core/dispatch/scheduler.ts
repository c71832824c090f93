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
  type ReadyCall,
  refuseToolCall,
  startToolCall,
} from "./call.js";
import { BatchEnds, type CallEnds, endOfOne } from "./call-ends.js";

/** One call through its whole life. Never rejects. */
export function runToolCall<T extends object>(
  runtime: CallRuntime,
  toolUse: ToolUse,
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T> {
  let info: CallInfo | undefined;
  try {
    info = startToolCall(runtime, toolUse, options?.traceContext, ending.reportsDuration);
    const prepared = prepareToolCall(runtime, info, options?.signal);
    if (prepared instanceof Promise) {
      const started = info;
      return prepared
        .then((call) =>
          endOfOne<T>((ends) => completeSafely(runtime, call, options, performance.now(), ending, ends, 0)),
        )
        .catch((error: unknown) => internalFailure(runtime, started, toolUse, error, ending));
    }
    // Prepared at once: no time has passed since the call started (when that was read).
    const started = Number.isNaN(info.started) ? performance.now() : info.started;
    return endOfOne<T>((ends) => completeSafely(runtime, prepared, options, started, ending, ends, 0));
  } catch (error) {
    return Promise.resolve(internalFailure(runtime, info, toolUse, error, ending));
  }
}

/**
 * Runs a prepared call's executor, its timeout counted from `executorStart` (a `performance.now()` reading), and
 * puts the call's end in `ends` at `slot`; a fault inside toolwire is the call's error result. Never throws.
 */
function completeSafely<T>(
  runtime: CallRuntime,
  prepared: PreparedCall,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
  ends: CallEnds<T>,
  slot: number,
): void {
  try {
    // `undefined` only for a ready call that needs no approval: the synchronous path.
    const approving = prepared.kind === "ready" ? approveToolCall(runtime, prepared, options) : prepared;
    if (approving === undefined) {
      executePreparedToolCall(runtime, prepared as ReadyCall, options, executorStart, ending, ends, slot);
    } else if (!(approving instanceof Promise)) {
      ends.put(slot, endUnrun(runtime, approving, ending)); // refused, or paused at once
    } else {
      // The executor starts once a person said yes: its timeout counts from then, not from the question.
      const decided = approving.then((call) =>
        call.kind === "ready"
          ? endOfOne<T>((own) => executePreparedToolCall(runtime, call, options, performance.now(), ending, own, 0))
          : endUnrun(runtime, call, ending),
      );
      ends.put(
        slot,
        decided.catch((error: unknown) => internalFailure(runtime, prepared.info, undefined, error, ending)),
      );
    }
  } catch (error) {
    ends.put(slot, internalFailure(runtime, prepared.info, undefined, error, ending));
  }
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
export async function runToolCallsInParallel<T extends object>(
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
      info = startToolCall(runtime, toolUse, options?.traceContext, ending.reportsDuration);
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
export async function completeInParallel<T extends object>(
  runtime: CallRuntime,
  prepared: readonly (PreparedCall | { readonly ended: T })[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  const ends = new BatchEnds<T>(prepared.length);
  const executorsStart = performance.now(); // the parallel executors start now, after every preparation
  for (let slot = 0; slot < prepared.length; slot++) {
    const call = prepared[slot] as PreparedCall | { readonly ended: T };
    if ("ended" in call) ends.put(slot, call.ended);
    else if (call.kind === "ready" && call.tool.executionMode === "sequential") {
      await ends.whenFilled(slot); // the running ones finish first...
      completeSafely(runtime, call, options, performance.now(), ending, ends, slot);
      await ends.whenFilled(slot + 1); // ...and nothing else starts until this one is done
    } else completeSafely(runtime, call, options, executorsStart, ending, ends, slot);
  }
  await ends.whenFilled(prepared.length);
  return ends.values;
}

/** Runs prepared calls one after the other, each to its end before the next starts. */
export async function completeInSequence<T extends object>(
  runtime: CallRuntime,
  prepared: readonly PreparedCall[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const call of prepared) {
    results.push(
      await endOfOne<T>((ends) => completeSafely(runtime, call, options, performance.now(), ending, ends, 0)),
    );
  }
  return results;
}

/** A batch in sequential mode: each call's whole life before the next starts. */
export async function runToolCallsInSequence<T extends object>(
  runtime: CallRuntime,
  toolUses: readonly ToolUse[],
  options: DispatchOptions | undefined,
  ending: CallEnding<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const toolUse of toolUses) results.push(await runToolCall(runtime, toolUse, options, ending));
  return results;
}
