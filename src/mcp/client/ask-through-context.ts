// A server's question during a bridged call, asked of the call's own caller (`context.ask`): the serving client's
// elicitation when toolwire serves, else the session's approver.
import { isRecord } from "../../core/json.js";
import type { JsonObject, ToolCallContext, ToolQuestion } from "../../core/types.js";
import type { McpElicitationHandler } from "./answer-elicitation.js";

/**
 * An `onElicitation` handler that asks through `context.ask`, or `undefined` when the context has none. A form keeps
 * its message and schema; a URL question (`mode: "url"`) becomes a yes or no naming the URL.
 */
export function askThroughContext(context: ToolCallContext): McpElicitationHandler | undefined {
  const { ask } = context;
  if (ask === undefined) return undefined;
  return ({ params, key }) => ask(questionOf(params, key));
}

/** The server's question, with its own key when it has one (a long key is left out: the caller names the question). */
function questionOf(params: JsonObject, key: string | undefined): ToolQuestion {
  const message = typeof params.message === "string" ? params.message : "(the server sent no message)";
  const named = key !== undefined && key.length > 0 && key.length <= 128 ? { key } : {};
  if (params.mode === "url" && typeof params.url === "string") {
    return { message: `${message} (open ${params.url})`, ...named };
  }
  return isRecord(params.requestedSchema)
    ? { message, schema: params.requestedSchema as JsonObject, ...named }
    : { message, ...named };
}
