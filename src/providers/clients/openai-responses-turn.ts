// The Responses API as data: the transcript as input items, a response (or its event stream) as a model turn, and the
// tools as sent with native tool search.
import { TOOL_SEARCH_NAME } from "../../core/defer/create-tool-search-tool.js";
import { isRecord } from "../../core/json.js";
import type { AgentTool, ToolDescriptor } from "../../core/types.js";
import { ModelError } from "../errors.js";
import { formatResponsesToolSearch, openaiResponses } from "../openai-responses.js";
import { descriptorOf, upFrontTools } from "../shared.js";
import type { FormatToolResultsOptions } from "../types.js";
import { mapTranscript } from "./map-transcript.js";
import { argumentsText } from "./openai-chat-turn.js";
import { count } from "./sdk-support.js";
import type { ModelRequest, ModelStopReason, ModelTurn, TranscriptMessage } from "./types.js";

/**
 * The tools sent up front (those of `tools` not deferred: a found tool is already among the deferred), with
 * `tool_search` as the API's client-executed tool search, then every deferred tool with `defer_loading: true`: the
 * same list every turn, whatever the searches found.
 */
export function nativeResponsesTools(
  tools: readonly (AgentTool | ToolDescriptor)[],
  deferred: readonly (AgentTool | ToolDescriptor)[],
  options: { readonly strict: boolean; readonly programmaticToolCalling?: boolean },
): unknown[] {
  return [
    ...upFrontTools(tools, deferred).map((tool) =>
      descriptorOf(tool).name === TOOL_SEARCH_NAME
        ? formatResponsesToolSearch(tool)
        : openaiResponses.formatTools([tool], options)[0],
    ),
    ...openaiResponses.formatTools(deferred, { ...options, deferLoading: true }),
  ];
}

/** The response a Responses event stream ends with, reporting text and tool-call deltas on the way. */
export async function readResponsesStream(
  events: AsyncIterable<unknown>,
  request: ModelRequest,
  name: string,
): Promise<unknown> {
  const callIndexByOutput = new Map<number, number>();
  const searchesAwaitingArguments = new Set<number>();
  for await (const event of events) {
    if (!isRecord(event)) continue;
    const outputIndex = typeof event.output_index === "number" ? event.output_index : -1;
    switch (event.type) {
      case "response.output_text.delta":
        if (typeof event.delta === "string" && event.delta !== "") request.onTextDelta?.(event.delta);
        break;
      case "response.output_item.added": {
        const item = event.item;
        if (!isRecord(item)) break;
        const search = item.type === "tool_search_call" && item.execution === "client";
        if (item.type !== "function_call" && !search) break;
        const index = callIndexByOutput.size;
        callIndexByOutput.set(outputIndex, index);
        const name = search ? TOOL_SEARCH_NAME : item.name;
        const argumentsDelta = argumentsDeltaOf(item.arguments);
        if (search && argumentsDelta === "") searchesAwaitingArguments.add(outputIndex);
        request.onToolCallDelta?.({
          index,
          ...(typeof item.call_id === "string" ? { id: item.call_id } : {}),
          ...(typeof name === "string" ? { name } : {}),
          argumentsDelta,
        });
        break;
      }
      case "response.output_item.done": {
        // A tool search has no argument deltas: its arguments come whole, on the item added or the item done.
        const index = callIndexByOutput.get(outputIndex);
        if (index === undefined || !searchesAwaitingArguments.delete(outputIndex) || !isRecord(event.item)) break;
        const argumentsDelta = argumentsDeltaOf(event.item.arguments);
        if (argumentsDelta !== "") request.onToolCallDelta?.({ index, argumentsDelta });
        break;
      }
      case "response.function_call_arguments.delta": {
        const index = callIndexByOutput.get(outputIndex);
        if (index !== undefined && typeof event.delta === "string" && event.delta !== "") {
          request.onToolCallDelta?.({ index, argumentsDelta: event.delta });
        }
        break;
      }
      case "response.completed":
      case "response.incomplete":
        return event.response;
      case "response.failed":
      case "error": {
        const failure = event.type === "error" ? event : isRecord(event.response) ? event.response.error : undefined;
        const message = isRecord(failure) && typeof failure.message === "string" ? failure.message : "no reason given";
        throw new ModelError("request-failed", name, `Model ${name} failed while it answered: ${message}`);
      }
    }
  }
  throw new ModelError("invalid-response", name, `Model ${name} ended its stream before the response was complete`);
}

/** A streamed item's arguments as text: as sent when text, JSON for an object (a tool search's may be one). */
function argumentsDeltaOf(args: unknown): string {
  if (typeof args === "string") return args;
  return isRecord(args) && Object.keys(args).length > 0 ? JSON.stringify(args) : "";
}

/**
 * The transcript as Responses input items: output items echoed as sent, results as function_call_output items
 * (with `options.toolSearch`, a tool search's as a tool_search_output item).
 */
export function toResponsesInput(
  messages: readonly TranscriptMessage[],
  options: FormatToolResultsOptions = {},
): unknown[] {
  return mapTranscript(messages, {
    assistant: (message) => {
      const raw = message.providerMessage;
      if (raw?.provider === "openai-responses" && Array.isArray(raw.value)) return raw.value;
      const items: unknown[] = message.text === "" ? [] : [{ role: "assistant", content: message.text }];
      for (const call of message.toolCalls) {
        items.push({ type: "function_call", call_id: call.id, name: call.name, arguments: argumentsText(call.input) });
      }
      return items;
    },
    results: (results, calls) => openaiResponses.formatToolResults(results, calls, options),
  });
}

/** A Responses API body as a model turn. Throws `ModelError` (`invalid-response`) when it is not one. */
export function readResponse(response: unknown, model: string): ModelTurn {
  if (!isRecord(response) || !Array.isArray(response.output)) {
    throw new ModelError("invalid-response", model, `Model ${model} answered with no output list`);
  }
  let text = "";
  let refused = false;
  for (const item of response.output) {
    if (!isRecord(item) || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isRecord(part) && part.type === "output_text" && typeof part.text === "string") text += part.text;
      if (isRecord(part) && part.type === "refusal") refused = true;
    }
  }
  const toolCalls = openaiResponses.parseToolCalls(response);
  const incomplete = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
  const status = typeof response.status === "string" ? response.status : undefined;
  const stopReason: ModelStopReason =
    toolCalls.length > 0
      ? "tool_use"
      : incomplete === "max_output_tokens"
        ? "max_tokens"
        : refused || incomplete === "content_filter"
          ? "refusal"
          : status === "completed"
            ? "end"
            : "other";
  const usage = isRecord(response.usage) ? response.usage : undefined;
  const rawStopReason = typeof incomplete === "string" ? incomplete : status;
  return {
    text,
    toolCalls,
    stopReason,
    ...(rawStopReason === undefined ? {} : { rawStopReason }),
    ...(usage === undefined
      ? {}
      : {
          usage: {
            inputTokens: count(usage, "input_tokens"),
            outputTokens: count(usage, "output_tokens"),
            cacheReadTokens: count(usage.input_tokens_details, "cached_tokens"),
          },
        }),
    providerMessage: { provider: "openai-responses", value: response.output },
  };
}
