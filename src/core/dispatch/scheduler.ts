// Runs one call or a batch: results always in the calls' source order, one per call, never a rejection.
// Each function takes the call's ending, so `dispatch` (a block) and `dispatchDetailed` (an outcome) share one pipeline.
import { describeThrown } from "../errors.js";
import { errorResult } from "../tool-result.js";
import type { DispatchOptions, ToolUse } from "../types.js";
import {
  approveToolCall,
  type CallEnding,
  type CallInfo,
  type CallRuntime,
  executePreparedToolCall,
  finalizeExecutedToolCall,
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
    const done =
      prepared instanceof Promise
        ? prepared.then((call) => completePrepared(runtime, call, options, performance.now(), ending))
        : completePrepared(runtime, prepared, options, info.started, ending); // prepared at once: no time has passed
    const started = info;
    return done instanceof Promise
      ? done.catch((error: unknown) => internalFailure(runtime, started, toolUse, error, ending))
      : Promise.resolve(done);
  } catch (error) {
    return Promise.resolve(internalFailure(runtime, info, toolUse, error, ending));
  }
}

/** Runs a prepared call's executor, its timeout counted from `executorStart` (a `performance.now()` reading). */
function completePrepared<T>(
  runtime: CallRuntime,
  prepared: PreparedCall,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
): T | Promise<T> {
  if (prepared.kind !== "ready") return endUnrun(runtime, prepared, ending);
  const approving = approveToolCall(runtime, prepared, options);
  if (approving === undefined) return executeAndFinalize(runtime, prepared, options, executorStart, ending);
  if (!(approving instanceof Promise)) return endUnrun(runtime, approving, ending); // paused at once
  // The executor starts once a person said yes: its timeout counts from then, not from the question.
  return approving.then((approved) =>
    approved.kind === "ready"
      ? executeAndFinalize(runtime, approved, options, performance.now(), ending)
      : endUnrun(runtime, approved, ending),
  );
}

/** Ends a call that did not reach its executor: refused, or paused for approval. */
function endUnrun<T>(runtime: CallRuntime, call: PreparedCall, ending: CallEnding<T>): T {
  if (call.kind === "paused") return pauseToolCall(runtime, call, ending);
  if (call.kind === "refused") return refuseToolCall(runtime, call, ending);
  throw new Error("endUnrun: the call is ready to run"); // a fault in toolwire: internalFailure answers it
}

function executeAndFinalize<T>(
  runtime: CallRuntime,
  call: Extract<PreparedCall, { kind: "ready" }>,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
): Promise<T> {
  return executePreparedToolCall(runtime, call, options, executorStart).then((outcome) =>
    finalizeExecutedToolCall(runtime, call, outcome, ending),
  );
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
  let running: Promise<unknown>[] = [];
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

/** Completes a prepared call; a fault inside toolwire becomes that call's error result. */
function completeSafely<T>(
  runtime: CallRuntime,
  call: PreparedCall,
  options: DispatchOptions | undefined,
  executorStart: number,
  ending: CallEnding<T>,
): Promise<T> {
  const onFault = (error: unknown) => internalFailure(runtime, call.info, undefined, error, ending);
  try {
    const done = completePrepared(runtime, call, options, executorStart, ending);
    return done instanceof Promise ? done.catch(onFault) : Promise.resolve(done);
  } catch (error) {
    return Promise.resolve(onFault(error));
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

/** A bug in toolwire or a hostile value: still one error result for the call, never a rejection. */
function internalFailure<T>(
  runtime: CallRuntime,
  info: CallInfo | undefined,
  toolUse: ToolUse | undefined,
  error: unknown,
  ending: CallEnding<T>,
): T {
  const fallback: CallInfo = info ?? {
    id: safeString(() => (toolUse as { id?: unknown }).id),
    name: safeString(() => (toolUse as { name?: unknown }).name),
    rawInput: undefined,
    started: performance.now(),
    watch: undefined,
  };
  const result = errorResult(`Tool call failed inside toolwire: ${describeThrown(error)}`);
  try {
    return ending(runtime, fallback, result, "execution-failed");
  } catch {
    // An event listener cannot throw (the emitter catches it), so this is a fault in the ending itself: end quietly.
    return ending({ ...runtime, emitter: SILENT_EMITTER }, fallback, result, "execution-failed");
  }
}

const SILENT_EMITTER: CallRuntime["emitter"] = { on: () => () => {}, emit: () => {}, has: () => false };

function safeString(read: () => unknown): string {
  try {
    const value = read();
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}
