// A program's tool calls, dispatched through the session: each flush of calls is one batch, batches one at a time.

import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { cutText } from "../core/errors.js";
import type {
  ApprovalRequest,
  DispatchOptions,
  JsonValue,
  ToolCallContext,
  ToolCallOutcome,
  ToolUse,
} from "../core/types.js";
import type { NestedCallAnswer, NestedCallRequest } from "./engine/types.js";
import { answerFromOutcome } from "./nested-answer.js";
import type { ProgramJournal } from "./program-journal.js";
import type { ReplayedStep } from "./program-ledger.js";

/** What a program's calls go through. */
export interface NestedCallHost {
  readonly session: AgentSession;
  /** run_code's own call: its id names the nested calls, its options pass on to them. */
  readonly context: ToolCallContext;
  /** The names a program may call, in order. */
  readonly exposedNames: readonly string[];
  /** A program's `tools.tool_search(input)`: answered by code mode itself, from the tools' declarations. */
  searchTools(input: JsonValue): NestedCallAnswer;
  /** Records the program's answers, replays a resumed run's, and pauses the program for an approval. */
  readonly journal?: ProgramJournal;
}

/** The most characters of a program-written tool name an error message repeats. */
const MAX_ECHOED_NAME_CHARS = 100;
/** The most characters of the list of callable tools an error message gives. */
const MAX_LISTED_CHARS = 2_000;

/**
 * The engine's `callTools` for one program. The calls of one flush (`Promise.all`) are one `dispatchAllDetailed`:
 * they run together under the batch rules (a sequential tool alone, a sequential session one by one), each through
 * policy, validation, hooks, approvals and telemetry, with id `<run_code id>.<n>` (n counts the program's calls from
 * 1) and `parentToolCallId` set. A flush waits for the batch before it to end, so two batches never overlap.
 */
export function createNestedCaller(
  host: NestedCallHost,
): (requests: readonly NestedCallRequest[]) => readonly Promise<NestedCallAnswer>[] {
  const exposed = new Set(host.exposedNames);
  const { journal } = host;
  // In a durable run, each call's start is kept before its executor runs, and the program gets an answer only once
  // it is kept (docs/durable-runs.md).
  const durable = journal !== undefined && host.context.checkpoint !== undefined;
  const starting = new Map<string, NestedCallRequest>();
  const options = nestedOptions(host.context, journal !== undefined, durable ? starting : undefined, journal);
  const kept = <T>(value: T): Promise<T> =>
    durable ? (journal as ProgramJournal).kept().then(() => value) : Promise.resolve(value);
  let previous: Promise<unknown> = Promise.resolve();
  return (requests) => {
    if (journal?.stopped) return requests.map(() => Promise.resolve(STOPPED));
    const replayed = requests.map((request) => journal?.step(request) ?? LIVE);
    // A call the ledger does not know where it should: nothing of this flush runs.
    const divergence = replayed.find((step): step is string => typeof step === "string");
    if (divergence !== undefined) {
      journal?.diverge(divergence);
      return requests.map(() => Promise.resolve(STOPPED));
    }
    const slots: Slot[] = [];
    const uses: ToolUse[] = [];
    let resumes = false;
    for (const [index, request] of requests.entries()) {
      const step = replayed[index] as ReplayedStep;
      if (step.kind === "answered") slots.push({ kind: "now", answer: step.answer });
      else if (step.kind === "interrupted" && host.session.activeTools.get(request.tool)?.idempotent !== true) {
        slots.push({ kind: "now", answer: unknownOutcome(request.tool, `${host.context.toolCallId}.${request.seq}`) });
      } else if (step.kind === "paused") {
        resumes = true;
        slots.push({ kind: "resumed" });
      } else if (request.tool === TOOL_SEARCH_NAME)
        slots.push({ kind: "now", answer: host.searchTools(request.input) });
      else if (!exposed.has(request.tool))
        slots.push({ kind: "now", answer: notExposed(request.tool, host.exposedNames) });
      else {
        slots.push({ kind: "use", index: uses.length });
        const id = `${host.context.toolCallId}.${request.seq}`;
        if (durable) starting.set(id, request);
        uses.push({ id, name: request.tool, input: request.input });
      }
    }
    for (const [index, slot] of slots.entries()) {
      if (slot.kind === "now") journal?.record(requests[index] as NestedCallRequest, slot.answer);
    }
    if (uses.length === 0 && !resumes) {
      return slots.map((slot) => kept((slot as Extract<Slot, { kind: "now" }>).answer));
    }
    const batch = previous.then(() =>
      Promise.all([
        resumes && journal !== undefined ? journal.runPausedCall() : undefined,
        uses.length === 0 ? [] : host.session.dispatchAllDetailed(uses, options),
      ]),
    );
    previous = batch;
    const answered = batch.then(([resumed, outcomes]) => {
      const outcomeAt = (slot: Slot): ToolCallOutcome | undefined =>
        slot.kind === "use" ? outcomes[slot.index] : slot.kind === "resumed" ? resumed : undefined;
      return kept(settleFlush(journal, requests, slots.map(outcomeAt), slots));
    });
    return slots.map((slot, index) =>
      slot.kind === "now" ? kept(slot.answer) : answered.then((answers) => answers[index] ?? STOPPED),
    );
  };
}

/** Where a call of a flush gets its answer: at once, from its dispatch, or from the paused call resumed. */
type Slot =
  | { readonly kind: "now"; readonly answer: NestedCallAnswer }
  | { readonly kind: "use"; readonly index: number }
  | { readonly kind: "resumed" };

const LIVE: ReplayedStep = { kind: "live" };

/** The answer of a call left behind by a program that stopped (paused or diverged): nobody sees it. */
const STOPPED: NestedCallAnswer = { ok: false, code: "aborted", message: "The program stopped." };

/**
 * The answers of a flush once its calls ended. Every call of the flush ends before the program may pause: the
 * answers of those that did not wait are recorded; the first (in issue order) that waits for approval pauses the
 * program when the journal lets it (its ledger fits), and the others that wait are left out of the ledger, to be
 * asked again when the program resumes. When the program cannot pause, a call that waits ends with
 * `approval-required`.
 */
function settleFlush(
  journal: ProgramJournal | undefined,
  requests: readonly NestedCallRequest[],
  outcomes: readonly (ToolCallOutcome | undefined)[],
  slots: readonly Slot[],
): (NestedCallAnswer | undefined)[] {
  const answers = slots.map((slot, index) => {
    const outcome = outcomes[index];
    if (slot.kind === "now" || outcome === undefined || outcome.pendingApproval !== undefined) return undefined;
    const answer = answerFromOutcome(outcome);
    journal?.record(requests[index] as NestedCallRequest, answer);
    return answer;
  });
  const waiting = outcomes.findIndex((outcome) => outcome?.pendingApproval !== undefined);
  if (waiting < 0) return answers;
  const approval = (outcomes[waiting] as ToolCallOutcome).pendingApproval as ApprovalRequest;
  if (journal?.pause(requests[waiting] as NestedCallRequest, approval)) return answers;
  return answers.map((answer, index) => {
    const outcome = outcomes[index];
    if (outcome?.pendingApproval === undefined) return answer;
    const unrun: NestedCallAnswer = {
      ok: false,
      code: "approval-required",
      message: `Tool call ${outcome.pendingApproval.toolName} needs a person's approval, and this program could not pause for it. It was not run.`,
    };
    journal?.record(requests[index] as NestedCallRequest, unrun);
    return unrun;
  });
}

/**
 * The options of the nested calls: run_code's own (its abort, approver and trace, with `parentToolCallId`). A call
 * needing approval with nobody to ask pauses the program only when run_code's call can pause and its program
 * keeps a journal; otherwise it ends with `approval-required` inside the program.
 */
function nestedOptions(
  context: ToolCallContext,
  journaled: boolean,
  starting: Map<string, NestedCallRequest> | undefined,
  journal: ProgramJournal | undefined,
): DispatchOptions {
  const inherited = context.nestedDispatchOptions?.() ?? { signal: context.signal };
  const options = journaled && context.suspend !== undefined ? inherited : { ...inherited, pauseForApproval: false };
  if (starting === undefined || journal === undefined) return options;
  return {
    ...options,
    beforeExecute: ({ toolCallId }) => {
      const request = starting.get(toolCallId);
      starting.delete(toolCallId);
      return request === undefined ? undefined : journal.started(request);
    },
  };
}

/** The answer of a call whose executor started in a process that died, and whose tool may not run twice. */
function unknownOutcome(tool: string, id: string): NestedCallAnswer {
  return {
    ok: false,
    code: "outcome-unknown",
    message: `Tool call ${tool} (${id}) was running when the process running this program stopped; it may or may not have taken effect, and was not run again because ${tool} is not idempotent. Check before you repeat it.`,
  };
}

function notExposed(name: string, names: readonly string[]): NestedCallAnswer {
  const shown = cutText(name, MAX_ECHOED_NAME_CHARS);
  const available = cutText(names.length === 0 ? "none" : names.join(", "), MAX_LISTED_CHARS);
  return {
    ok: false,
    code: "tool-not-found",
    message: `tools.${shown} is not a tool this program may call. Tools: ${available}.`,
  };
}
