// A journaled turn's calls: each call's start recorded before its executor runs, each outcome as it ends, and the
// untrusted content they bring in.
import { inputDigest } from "../core/approve/input-digest.js";
import type {
  ApprovalResumption,
  DispatchOptions,
  ToolCallOutcome,
  ToolExecutionEndEvent,
  ToolResultBlock,
} from "../core/types.js";
import type { JournalEntry } from "../journal/run-journal.js";
import type { ToolCall } from "../providers/types.js";
import type { LoopJournal, LoopRun } from "./loop-run.js";

/**
 * Dispatches `calls` as `runAgent` does, journaled (`journalCalls`). Rejects when the journal fails; a call whose
 * start could not be recorded is not run.
 */
export function dispatchJournaled(
  run: LoopRun,
  journal: LoopJournal,
  calls: readonly ToolCall[],
  recovered?: DispatchOptions["recovered"],
): Promise<readonly Partial<ToolCallOutcome>[]> {
  const { session } = run.options;
  return journalCalls(
    run,
    journal,
    calls.map((call) => call.id),
    (options) => session.dispatchAllDetailed(calls, recovered === undefined ? options : { ...options, recovered }),
  );
}

/**
 * Runs calls paused for approval with their decisions (`session.approvals.resume`), journaled (`journalCalls`).
 * `ids` are the paused calls' ids in the turn.
 */
export function resumeJournaled(
  run: LoopRun,
  journal: LoopJournal,
  resumptions: readonly ApprovalResumption[],
  ids: readonly string[],
): Promise<readonly Partial<ToolCallOutcome>[]> {
  const { approvals } = run.options.session;
  if (approvals === undefined) return Promise.reject(new Error("the session has no approvals"));
  return journalCalls(run, journal, ids, (options) => approvals.resume(resumptions, options));
}

/**
 * Runs `dispatch` with the loop's options, recording in `journal` each of the calls `ids`' start (just before its
 * executor runs), what its executor keeps (`context.checkpoint`), each one's result as it ends, and each call that
 * taints the session. Rejects when the journal fails.
 */
async function journalCalls(
  run: LoopRun,
  journal: LoopJournal,
  ids: readonly string[],
  dispatch: (options: DispatchOptions) => Promise<readonly Partial<ToolCallOutcome>[]>,
): Promise<readonly Partial<ToolCallOutcome>[]> {
  const { session, signal } = run.options;
  const turn = run.turn;
  const ours = new Set(ids);
  // Each entry is appended as it happens (a journal may write those that arrive together at once); their failures
  // are awaited once the dispatch ends.
  const appends: Promise<void>[] = [];
  const record = (entry: JournalEntry) => {
    const appended = journal.record([entry]);
    appended.catch(() => undefined); // handled below
    appends.push(appended);
  };
  const stopEnds = session.on("tool_execution_end", (event) => {
    if (ours.has(event.toolCallId) && event.parentToolCallId === undefined) record(endEntry(turn, event));
  });
  // Nested calls (a program's) taint the run too.
  const stopTaints = session.on("flow_tainted", ({ toolCallId, toolName }) => {
    record({ kind: "flow-tainted", source: { toolCallId, toolName } });
  });
  try {
    const outcomes = await dispatch({
      ...(signal === undefined ? {} : { signal }),
      pauseForApproval: true,
      runId: journal.runId,
      beforeExecute: ({ toolCallId, toolName, input }) =>
        ours.has(toolCallId)
          ? journal.record([{ kind: "call-started", turn, toolCallId, toolName, inputDigest: inputDigest(input) }])
          : undefined,
      checkpoint: ({ toolCallId }, item) => journal.record([{ kind: "call-checkpoint", turn, toolCallId, item }]),
    });
    await Promise.all(appends);
    return outcomes;
  } finally {
    stopEnds();
    stopTaints();
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
