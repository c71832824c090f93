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
  return ({ params }) => ask(questionOf(params));
}

function questionOf(params: JsonObject): ToolQuestion {
  const message = typeof params.message === "string" ? params.message : "(the server sent no message)";
  if (params.mode === "url" && typeof params.url === "string") return { message: `${message} (open ${params.url})` };
  return isRecord(params.requestedSchema) ? { message, schema: params.requestedSchema as JsonObject } : { message };
}
