// Runs one call or a batch: results always in the calls' source order, one per call, never a rejection.
import { describeThrown } from "../errors.js";
import type { ToolResultBlock, ToolUse } from "../types.js";
import {
  type CallInfo,
  type CallRuntime,
  endToolCall,
  executePreparedToolCall,
  finalizeExecutedToolCall,
  type PreparedCall,
  prepareToolCall,
  refuseToolCall,
  startToolCall,
} from "./call.js";
import { errorResult } from "./result.js";

/** One call through its whole life. Never rejects. */
export function runToolCall(
  runtime: CallRuntime,
  toolUse: ToolUse,
  signal: AbortSignal | undefined,
): Promise<ToolResultBlock> {
  let info: CallInfo | undefined;
  try {
    info = startToolCall(runtime, toolUse);
    const prepared = prepareToolCall(runtime, info, signal);
    const done =
      prepared instanceof Promise
        ? prepared.then((call) => completePrepared(runtime, call, signal, performance.now()))
        : completePrepared(runtime, prepared, signal, info.started); // prepared at once: no time has passed
    const started = info;
    return done instanceof Promise
      ? done.catch((error: unknown) => internalFailure(runtime, started, toolUse, error))
      : Promise.resolve(done);
  } catch (error) {
    return Promise.resolve(internalFailure(runtime, info, toolUse, error));
  }
}

/** Runs a prepared call's executor, its timeout counted from `executorStart` (a `performance.now()` reading). */
function completePrepared(
  runtime: CallRuntime,
  prepared: PreparedCall,
  signal: AbortSignal | undefined,
  executorStart: number,
): ToolResultBlock | Promise<ToolResultBlock> {
  if (prepared.kind === "refused") return refuseToolCall(runtime, prepared);
  return executePreparedToolCall(runtime, prepared, signal, executorStart).then((outcome) =>
    finalizeExecutedToolCall(runtime, prepared, outcome),
  );
}

/**
 * A batch in parallel mode: before hooks run one call at a time, then the executors run together,
 * except tools with `executionMode: "sequential"`, which wait for the running ones and run alone.
 */
export async function runToolCallsInParallel(
  runtime: CallRuntime,
  toolUses: readonly ToolUse[],
  signal: AbortSignal | undefined,
): Promise<ToolResultBlock[]> {
  if (toolUses.length === 1) return [await runToolCall(runtime, toolUses[0] as ToolUse, signal)];
  const prepared: (PreparedCall | ToolResultBlock)[] = [];
  for (const toolUse of toolUses) {
    let info: CallInfo | undefined;
    try {
      info = startToolCall(runtime, toolUse);
      const pending = prepareToolCall(runtime, info, signal);
      const call = pending instanceof Promise ? await pending : pending; // synchronous unless a hook is async
      prepared.push(call.kind === "refused" ? refuseToolCall(runtime, call) : call); // refused calls end at once
    } catch (error) {
      prepared.push(internalFailure(runtime, info, toolUse, error));
    }
  }
  const results: (ToolResultBlock | Promise<ToolResultBlock>)[] = [];
  let running: Promise<unknown>[] = [];
  const executorsStart = performance.now(); // the parallel executors start now, after every preparation
  for (let index = 0; index < prepared.length; index++) {
    const call = prepared[index] as PreparedCall | ToolResultBlock;
    if (!("kind" in call)) {
      results.push(call);
      continue;
    }
    const toolUse = toolUses[index] as ToolUse;
    if (call.kind === "ready" && call.tool.executionMode === "sequential") {
      await Promise.all(running); // the running ones finish first...
      running = [];
      const result = completeSafely(runtime, call, toolUse, signal, performance.now());
      results.push(result);
      await result; // ...and nothing else starts until this one is done
    } else {
      const result = completeSafely(runtime, call, toolUse, signal, executorsStart);
      results.push(result);
      running.push(result);
    }
  }
  return Promise.all(results);
}

/** Completes a prepared call; a fault inside toolwire becomes that call's error result. */
function completeSafely(
  runtime: CallRuntime,
  call: PreparedCall,
  toolUse: ToolUse,
  signal: AbortSignal | undefined,
  executorStart: number,
): Promise<ToolResultBlock> {
  const onFault = (error: unknown) => internalFailure(runtime, call.info, toolUse, error);
  try {
    const done = completePrepared(runtime, call, signal, executorStart);
    return done instanceof Promise ? done.catch(onFault) : Promise.resolve(done);
  } catch (error) {
    return Promise.resolve(onFault(error));
  }
}

/** A batch in sequential mode: each call's whole life before the next starts. */
export async function runToolCallsInSequence(
  runtime: CallRuntime,
  toolUses: readonly ToolUse[],
  signal: AbortSignal | undefined,
): Promise<ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  for (const toolUse of toolUses) results.push(await runToolCall(runtime, toolUse, signal));
  return results;
}

/** A bug in toolwire or a hostile value: still one error result for the call, never a rejection. */
function internalFailure(
  runtime: CallRuntime,
  info: CallInfo | undefined,
  toolUse: ToolUse,
  error: unknown,
): ToolResultBlock {
  const fallback: CallInfo = info ?? {
    id: safeString(() => (toolUse as { id?: unknown }).id),
    name: safeString(() => (toolUse as { name?: unknown }).name),
    rawInput: undefined,
    started: performance.now(),
  };
  try {
    return endToolCall(
      runtime,
      fallback,
      errorResult(`Tool call failed inside toolwire: ${describeThrown(error)}`),
      "execution-failed",
    );
  } catch {
    return {
      type: "tool_result",
      tool_use_id: fallback.id,
      content: [{ type: "text", text: "Tool call failed" }],
      is_error: true,
    };
  }
}

function safeString(read: () => unknown): string {
  try {
    const value = read();
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}
