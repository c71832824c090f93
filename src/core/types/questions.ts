// A question a running tool asks the person behind its call (an MCP server's elicitation, bridged), and the answer.
import type { JsonObject } from "./json.js";

/** What a tool asks while it runs: a message for a person and, when it wants more than a yes or no, a form. */
export interface ToolQuestion {
  readonly message: string;
  /**
   * The answer's form: a JSON Schema object whose properties are strings, numbers, booleans or enums, as MCP's
   * `requestedSchema`. A property's `default` is what a plain yes gives it. Absent: a yes or no.
   */
  readonly schema?: JsonObject;
  /**
   * The question's name, unique in its call (at most 128 characters): the key of its input request when an MCP client
   * is asked (`inputRequests`), so that a client may answer it ahead. A bridged server's question keeps its own key.
   */
  readonly key?: string;
}

/** The person's answer: accept (with the form's fields), decline, or cancel (no answer given). */
export type ToolQuestionAnswer =
  | { readonly action: "accept"; readonly content?: JsonObject }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

/** A question, as the caller of the call that asks it gets it (`DispatchOptions.ask`). */
export interface AskedQuestion extends ToolQuestion {
  readonly toolCallId: string;
  readonly toolName: string;
}
