// A journaled turn's calls: each call's start recorded before its executor runs, each outcome as it ends.
import { inputDigest } from "../core/approve/input-digest.js";
import type { ToolCallOutcome, ToolExecutionEndEvent, ToolResultBlock } from "../core/types.js";
import type { ToolCall } from "../providers/types.js";
import type { LoopJournal, LoopRun } from "./loop-run.js";

/**
 * Dispatches `calls` as `runAgent` does, recording in `journal` each call's start (just before its executor runs)
 * and each call's result as it ends. Rejects when the journal fails; a call whose start could not be recorded is not
 * run.
 */
export async function dispatchJournaled(
  run: LoopRun,
  journal: LoopJournal,
  calls: readonly ToolCall[],
): Promise<readonly Partial<ToolCallOutcome>[]> {
  const { session, signal } = run.options;
  const turn = run.turn;
  const ids = new Set(calls.map((call) => call.id));
  // Ends are recorded in order, one append after another; the first failure is kept for after the dispatch.
  let ends: Promise<void> = Promise.resolve();
  const stop = session.on("tool_execution_end", (event) => {
    if (!ids.has(event.toolCallId) || event.parentToolCallId !== undefined) return;
    const entry = endEntry(turn, event);
    ends = ends.then(() => journal.record([entry]));
    ends.catch(() => undefined); // handled: the failure is awaited once the dispatch ends
  });
  try {
    const outcomes = await session.dispatchAllDetailed(calls, {
      ...(signal === undefined ? {} : { signal }),
      pauseForApproval: true,
      runId: journal.runId,
      beforeExecute: ({ toolCallId, toolName, input }) =>
        ids.has(toolCallId)
          ? journal.record([{ kind: "call-started", turn, toolCallId, toolName, inputDigest: inputDigest(input) }])
          : undefined,
    });
    await ends;
    return outcomes;
  } finally {
    stop();
  }
}

function endEntry(turn: number, event: ToolExecutionEndEvent) {
  const { toolCallId, result, errorCode } = event;
  const block: ToolResultBlock =
    result.isError === true
      ? { type: "tool_result", tool_use_id: toolCallId, content: result.content, is_error: true }
      : { type: "tool_result", tool_use_id: toolCallId, content: result.content };
  const entry = { kind: "call-ended" as const, turn, toolCallId, result: block };
  return errorCode === undefined ? entry : { ...entry, errorCode };
}
