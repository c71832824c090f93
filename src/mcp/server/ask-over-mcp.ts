// A running call's own question (`context.ask`: a bridged server's elicitation), asked of the MCP client that made
// the call: pushed as an elicitation to a 2025 client, put in the call's task for a 2026-07-28 one that takes tasks
// once the call is one (before that, and for a client that takes no tasks, it is an input_required result while the
// call is held: answer-held-call.ts).
import { inputRequired, type ServerContext } from "@modelcontextprotocol/server";
import { DEFAULT_APPROVAL_TTL_MS } from "../../core/approve/approvals.js";
import type { DispatchOptions, JsonObject, ToolQuestion, ToolQuestionAnswer } from "../../core/types.js";
import type { TaskableCall } from "./tasks/served-tasks.js";

/** The form of a question that wants only a yes or no. */
const NO_FIELDS = { type: "object", properties: {} } as const;

/** A question as the params of an `elicitation/create` request: its form, or none for a yes or no. */
export function elicitParams(question: ToolQuestion) {
  return { message: question.message, requestedSchema: (question.schema ?? NO_FIELDS) as JsonObject };
}

/** For a 2025 client: asks through an elicitation request, waiting as long as an approval may. */
export function elicitQuestion(ctx: ServerContext): NonNullable<DispatchOptions["ask"]> {
  return async (question, { signal }) => {
    const params = elicitParams(question) as Parameters<ServerContext["mcpReq"]["elicitInput"]>[0];
    return (await ctx.mcpReq.elicitInput(params, { signal, timeout: DEFAULT_APPROVAL_TTL_MS })) as ToolQuestionAnswer;
  };
}

/**
 * For a 2026-07-28 client that takes tasks: the call becomes a task, `input_required` until `tasks/update` answers.
 * With `beforeTask` (a held call's ask), a question the call asks before it is a task is asked that way instead: as
 * an `input_required` result of the call itself, whose retry brings the answer (and then, maybe, the task).
 */
export function questionThroughTask(
  task: TaskableCall,
  beforeTask?: NonNullable<DispatchOptions["ask"]>,
): NonNullable<DispatchOptions["ask"]> {
  return async (question, options) => {
    if (beforeTask !== undefined && !task.isTask()) return beforeTask(question, options);
    const request = inputRequired.elicit(elicitParams(question) as Parameters<typeof inputRequired.elicit>[0]);
    const message = `Waiting for an answer to ${question.toolName}'s question`;
    return (await task.ask({ request, message, signal: options.signal })) as ToolQuestionAnswer;
  };
}
