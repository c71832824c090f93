// A batch of calls: prepared one at a time in source order, then run together (sequential tools alone), results in
// order.
import type { DispatchOptions, ToolCallOutcome, ToolUse } from "../types.js";
import {
  type Call,
  type CallRuntime,
  checkCall,
  completeCall,
  endCall,
  internalFailure,
  runCall,
  runCallBeforeHooks,
  startCall,
} from "./call.js";

/**
 * Runs a model's tool calls; one outcome per call, in the calls' order, never a rejection. In `sequential` mode each
 * call's whole life comes before the next one starts. Otherwise the calls are prepared one at a time (their before
 * hooks in order, all before any executor; a refused call ends at once), then run together by `completeCalls`.
 */
export async function runCalls(
  runtime: CallRuntime,
  toolUses: readonly ToolUse[],
  options: DispatchOptions | undefined,
  sequential: boolean,
): Promise<ToolCallOutcome[]> {
  if (!Array.isArray(toolUses)) return [];
  if (sequential) {
    const outcomes: ToolCallOutcome[] = [];
    for (const toolUse of toolUses) outcomes.push(await runCall(runtime, toolUse, options));
    return outcomes;
  }
  const prepared: (Call | ToolCallOutcome)[] = [];
  for (const toolUse of toolUses) {
    let call: Call | undefined;
    try {
      call = startCall(runtime, toolUse, options);
      checkCall(runtime, call, options?.signal);
      if (call.state.kind === "ready" && runtime.beforeHooks.length > 0) await runCallBeforeHooks(runtime, call);
      prepared.push(call.state.kind === "refused" ? endCall(runtime, call) : call);
    } catch (error) {
      prepared.push(internalFailure(runtime, call, toolUse, error));
    }
  }
  return completeCalls(runtime, prepared, options);
}

/**
 * Runs prepared calls' executors together, except tools with `executionMode: "sequential"`, which wait for the
 * running ones and run alone. An entry that is an outcome already (a call that ended while it was prepared) keeps
 * its place. Outcomes in the calls' order; never rejects.
 */
export async function completeCalls(
  runtime: CallRuntime,
  prepared: readonly (Call | ToolCallOutcome)[],
  options: DispatchOptions | undefined,
): Promise<ToolCallOutcome[]> {
  const outcomes: (ToolCallOutcome | Promise<ToolCallOutcome>)[] = [];
  for (const entry of prepared) {
    if (!("state" in entry)) outcomes.push(entry);
    else if (entry.tool?.tool.executionMode === "sequential" && entry.state.kind === "ready") {
      await Promise.all(outcomes); // the running ones finish first...
      const alone = completeCall(runtime, entry, options);
      outcomes.push(alone);
      await alone; // ...and nothing else starts until this one is done
    } else outcomes.push(completeCall(runtime, entry, options));
  }
  return Promise.all(outcomes);
}

/** Runs prepared calls one after the other, each to its end before the next starts. */
export async function completeCallsInSequence(
  runtime: CallRuntime,
  prepared: readonly Call[],
  options: DispatchOptions | undefined,
): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  for (const call of prepared) outcomes.push(await completeCall(runtime, call, options));
  return outcomes;
}
