// context.ask: a running call's own question (an MCP server's elicitation, bridged), answered by its caller's `ask`
// with the form, else by an approver's yes or no.
import { type Approvals, askApproval, createApprovals } from "../approve/approvals.js";
import { fieldsWithoutDefaults, formDefaults } from "../approve/form-defaults.js";
import { copyJson } from "../copy-json.js";
import { cutText, toolCallRefusal } from "../errors.js";
import { isRecord } from "../json.js";
import type { DispatchOptions, JsonObject, ToolDescriptor, ToolQuestion, ToolQuestionAnswer } from "../types.js";
import type { SessionEmitter } from "./events.js";

/** The running call that asks. */
export interface AskingCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
  readonly parentToolCallId?: string;
}

/** The longest message a question may carry; a longer one is cut. */
const MAX_MESSAGE_CHARS = 4_000;

/**
 * The call's `context.ask`, or `undefined` when nobody can answer: neither the caller's `ask` nor an approver (the
 * dispatch's, else the session's). `signal` is the call's own: a question stops waiting when the call is aborted.
 */
export function questionAsker(
  call: AskingCall,
  approvals: Approvals | undefined,
  emitter: SessionEmitter,
  options: DispatchOptions | undefined,
  signal: () => AbortSignal,
): ((question: ToolQuestion) => Promise<ToolQuestionAnswer>) | undefined {
  const ask = options?.ask;
  const approver = options?.approver ?? approvals?.approver;
  if (ask === undefined && approver === undefined) return undefined;
  const { toolCallId, toolName } = call;
  return async (question) => {
    const asked = readQuestion(question);
    if (signal().aborted)
      throw toolCallRefusal("aborted", toolName, `Tool call ${toolName} was aborted before its question was answered.`);
    if (ask !== undefined) return readAnswer(await ask({ ...asked, toolCallId, toolName }, { signal: signal() }));
    // Only a yes or no: it can answer a form whose every required field has a default.
    const missing = fieldsWithoutDefaults(asked.schema);
    if (missing.length > 0) {
      const message = `Tool call ${toolName} asked "${cutText(asked.message, 300)}", which needs ${missing.join(", ")}; only a yes or no can be given here, so it was not answered.`;
      throw toolCallRefusal("approval-required", toolName, message);
    }
    const verdict = await askApproval(
      approvals ?? createApprovals({ require: [] }),
      { ...call, question: asked },
      {
        requested: (request) => emitter.emit("approval_requested", request),
        resolved: (event) => emitter.emit("approval_resolved", event),
      },
      signal(),
      approver,
    );
    if (verdict.approved) return { action: "accept", content: formDefaults(asked.schema) };
    if (verdict.code === "aborted") throw toolCallRefusal("aborted", toolName, verdict.message);
    return { action: "decline" };
  };
}

/**
 * The question as plain JSON data; a `TypeError` for one that is not `{ message: string, schema?: object, key?: string }`.
 */
function readQuestion(question: unknown): ToolQuestion {
  const copied = copyJson(question, "the question");
  const value = copied.ok ? copied.value : undefined;
  if (
    !isRecord(value) ||
    typeof value.message !== "string" ||
    (value.schema !== undefined && !isRecord(value.schema)) ||
    (value.key !== undefined && (typeof value.key !== "string" || value.key.length === 0 || value.key.length > 128))
  ) {
    throw new TypeError("context.ask takes { message: string, schema?: object, key?: string } as JSON data");
  }
  return {
    message: cutText(value.message, MAX_MESSAGE_CHARS),
    ...(value.schema === undefined ? {} : { schema: value.schema as JsonObject }),
    ...(value.key === undefined ? {} : { key: value.key as string }),
  };
}

/** The caller's answer as one of the three actions; anything else counts as cancel (no answer given). */
function readAnswer(answer: unknown): ToolQuestionAnswer {
  if (!isRecord(answer)) return { action: "cancel" };
  if (answer.action === "decline") return { action: "decline" };
  if (answer.action !== "accept") return { action: "cancel" };
  if (answer.content === undefined) return { action: "accept" };
  const copied = copyJson(answer.content, "the answer");
  return copied.ok && isRecord(copied.value)
    ? { action: "accept", content: copied.value as JsonObject }
    : { action: "cancel" };
}
