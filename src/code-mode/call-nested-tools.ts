// A program's tool calls, dispatched through the session: each flush of calls is one batch, batches one at a time.

import type { AgentSession } from "../core/dispatch/session.js";
import { cutText } from "../core/errors.js";
import type { DispatchOptions, JsonValue, ToolCallContext, ToolCallOutcome, ToolUse } from "../core/types.js";
import type { NestedCallAnswer, NestedCallRequest } from "./engine/types.js";
import { answerFromOutcome } from "./nested-answer.js";

/** What a program's calls go through. */
export interface NestedCallHost {
  readonly session: AgentSession;
  /** run_code's own call: its id names the nested calls, its options pass on to them. */
  readonly context: ToolCallContext;
  /** The names a program may call, in order. */
  readonly exposedNames: readonly string[];
  /** A program's `tools.tool_search(input)`: answered by code mode itself, from the tools' declarations. */
  searchTools(input: JsonValue): NestedCallAnswer;
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
  const options = nestedOptions(host.context);
  let previous: Promise<unknown> = Promise.resolve();
  return (requests) => {
    const answers: (NestedCallAnswer | number)[] = [];
    const uses: ToolUse[] = [];
    for (const request of requests) {
      if (request.tool === "tool_search") answers.push(host.searchTools(request.input));
      else if (!exposed.has(request.tool)) answers.push(notExposed(request.tool, host.exposedNames));
      else {
        answers.push(uses.length);
        uses.push({ id: `${host.context.toolCallId}.${request.seq}`, name: request.tool, input: request.input });
      }
    }
    if (uses.length === 0) return answers.map((answer) => Promise.resolve(answer as NestedCallAnswer));
    const outcomes: Promise<ToolCallOutcome[]> = previous.then(() => host.session.dispatchAllDetailed(uses, options));
    previous = outcomes;
    return answers.map((answer) =>
      typeof answer === "number"
        ? outcomes.then((done) => answerFromOutcome(done[answer] as ToolCallOutcome))
        : Promise.resolve(answer),
    );
  };
}

/**
 * The options of the nested calls: run_code's own (its abort, approver and trace, with `parentToolCallId`), except
 * that a call needing approval with nobody to ask ends with `approval-required` inside the program instead of
 * pausing a run the program cannot hand back.
 */
function nestedOptions(context: ToolCallContext): DispatchOptions {
  const inherited = context.nestedDispatchOptions?.() ?? { signal: context.signal };
  return { ...inherited, pauseForApproval: false };
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
