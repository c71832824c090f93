// What a yes or no means for a request that carries a running call's own question, in one sentence for whoever
// answers it (a terminal, the inspector).
import type { ApprovalRequest } from "../types.js";
import { formDefaults } from "./form-defaults.js";

/** The sentence for a request with a `question`; `undefined` for any other request. */
export function describeQuestion(request: ApprovalRequest): string | undefined {
  const { question } = request;
  if (question === undefined) return undefined;
  const defaults = formDefaults(question.schema);
  const filled = Object.keys(defaults).length === 0 ? "" : ` with ${JSON.stringify(defaults)}`;
  return `While it runs, ${request.toolName} asks: ${JSON.stringify(question.message)}. Yes answers it${filled}; no declines it.`;
}
