// A model client for OpenAI-compatible servers (OpenAI, Ollama, vLLM, llama.cpp) through the official SDK.
import { TOOL_SEARCH_NAME } from "../../core/defer/create-tool-search-tool.js";
import { isRecord } from "../../core/json.js";
import type { AgentTool, ToolDescriptor } from "../../core/types.js";
import { ModelError } from "../errors.js";
import { chatMessageOf, openaiChat } from "../openai-chat.js";
import { formatResponsesToolSearch, openaiResponses } from "../openai-responses.js";
import { descriptorOf, upFrontTools } from "../shared.js";
import type { FormatToolResultsOptions, ToolCall } from "../types.js";
import { mapTranscript } from "./map-transcript.js";
import { baseUrlOf, count, loadSdk, sdkClientOptions, toModelError } from "./sdk-support.js";
import type {
  ModelClient,
  ModelConnectionOptions,
  ModelRequest,
  ModelStopReason,
  ModelTurn,
  ToolCallDelta,
  TranscriptMessage,
} from "./types.js";

/**
 * Options of `createOpenAIModel`. With a `baseURL` (e.g. `http://127.0.0.1:11434/v1` for Ollama) and no key
 * anywhere, a placeholder key is sent: local servers need none.
 */
export interface OpenAIModelOptions extends ModelConnectionOptions {
  /** e.g. `gpt-4.1`, or the model name a local server knows (`llama3.1`). */
  readonly model: string;
  /** `chat` (Chat Completions, what compatible servers serve) or `responses`. Default `chat`. */
  readonly api?: "chat" | "responses";
  /** Strict function calling: `strict: true` tools with adapted schemas. Default false. */
  readonly strict?: boolean;
  /** `max_tokens` / `max_output_tokens`. Default: the server's. */
  readonly maxTokens?: number;
  /** Stream the reply, calling `onTextDelta` and `onToolCallDelta` as text and tool calls arrive. Default false. */
  readonly stream?: boolean;
  /**
   * Responses only: provider-native deferral (the Responses API's `tool_search`, run by the client). The request's
   * deferred tools go as function tools with `defer_loading: true`, `tool_search` as `{ type: "tool_search",
   * execution: "client" }`; the model's `tool_search_call` runs the session's `tool_search` and is answered with a
   * `tool_search_output` item holding the found tools' definitions. Default false (the provider-neutral form),
   * because only models with tool search accept it (others answer 400). Chat Completions ignores it.
   */
  readonly nativeToolSearch?: boolean;
}

type OpenAISdk = typeof import("openai");
type OpenAIClient = InstanceType<OpenAISdk["default"]>;

/**
 * A `ModelClient` for any OpenAI-compatible server (`openai`, loaded on the first turn), over Chat Completions or
 * the Responses API. Tool calls are echoed back with their `arguments` text exactly as the model wrote it.
 */
export function createOpenAIModel(options: OpenAIModelOptions): ModelClient {
  const api = options.api ?? "chat";
  const name = `openai${api === "responses" ? "-responses" : ""}:${options.model}`;
  let client: Promise<OpenAIClient> | undefined;
  const getClient = () => {
    client ??= loadSdk(() => import("openai"), "openai", name).then((sdk) => {
      const apiKey =
        options.apiKey ?? process.env.OPENAI_API_KEY ?? (options.baseURL === undefined ? undefined : "unused");
      return new sdk.default(sdkClientOptions(options, apiKey));
    });
    return client;
  };
  const run = api === "responses" ? completeWithResponses : completeWithChat;
  return {
    name,
    async complete(request) {
      let baseURL: string | undefined;
      const progress: StreamProgress = { answered: false };
      try {
        const sdk = await getClient();
        baseURL = baseUrlOf(sdk);
        const turn = await run(sdk, options, request, name, progress);
        if (options.stream !== true && turn.text !== "") request.onTextDelta?.(turn.text);
        return turn;
      } catch (error) {
        throw toModelError(error, name, request.signal, baseURL, progress.answered);
      }
    },
  };
}

/** Whether the server has begun to answer a streamed request (HTTP 200), so a later fault is in what it sends. */
interface StreamProgress {
  answered: boolean;
}

// ---------------------------------------------------------------- Chat Completions

async function completeWithChat(
  client: OpenAIClient,
  options: OpenAIModelOptions,
  request: ModelRequest,
  name: string,
  progress: StreamProgress,
): Promise<ModelTurn> {
  const tools = openaiChat.formatTools(request.tools, { strict: options.strict === true });
  const messages = [
    ...(request.systemPrompt === "" ? [] : [{ role: "system", content: request.systemPrompt }]),
    ...toChatMessages(request.messages),
  ];
  const body = {
    model: options.model,
    messages,
    ...(tools.length === 0 ? {} : { tools }),
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
  } as unknown as Parameters<OpenAIClient["chat"]["completions"]["create"]>[0] & { stream?: false };
  let completion: unknown;
  if (options.stream === true) {
    const streamBody = { ...body, stream_options: { include_usage: true } } as unknown as Parameters<
      OpenAIClient["chat"]["completions"]["stream"]
    >[0];
    const stream = client.chat.completions.stream(streamBody, { signal: request.signal });
    stream.on("connect", () => {
      progress.answered = true;
    });
    const { onTextDelta, onToolCallDelta } = request;
    if (onTextDelta !== undefined) stream.on("content.delta", ({ delta }) => onTextDelta(delta));
    if (onToolCallDelta !== undefined) stream.on("chunk", (chunk) => reportChatToolCallDeltas(chunk, onToolCallDelta));
    completion = await stream.finalChatCompletion();
  } else {
    completion = await client.chat.completions.create(body, { signal: request.signal });
  }
  return readChatCompletion(completion, name);
}

/** The tool-call pieces of one streamed chunk as deltas: `index` is the chunk's own (Chat numbers calls from 0). */
function reportChatToolCallDeltas(chunk: unknown, onToolCallDelta: (delta: ToolCallDelta) => void): void {
  const choice = isRecord(chunk) && Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  const calls = isRecord(choice) && isRecord(choice.delta) ? choice.delta.tool_calls : undefined;
  if (!Array.isArray(calls)) return;
  calls.forEach((call, position) => {
    if (!isRecord(call)) return;
    const fn = isRecord(call.function) ? call.function : {};
    onToolCallDelta({
      index: typeof call.index === "number" ? call.index : position,
      ...(typeof call.id === "string" ? { id: call.id } : {}),
      ...(typeof fn.name === "string" ? { name: fn.name } : {}),
      argumentsDelta: typeof fn.arguments === "string" ? fn.arguments : "",
    });
  });
}

/** The transcript as Chat Completions messages (without the system message). */
export function toChatMessages(messages: readonly TranscriptMessage[]): unknown[] {
  return mapTranscript(messages, {
    assistant: (message) => {
      const raw = message.providerMessage;
      return [raw?.provider === "openai-chat" ? raw.value : chatAssistantMessage(message.text, message.toolCalls)];
    },
    results: (results, calls) => openaiChat.formatToolResults(results, calls),
  });
}

function chatAssistantMessage(text: string, calls: readonly ToolCall[]): unknown {
  const message: Record<string, unknown> = { role: "assistant", content: text === "" ? null : text };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: argumentsText(call.input) },
    }));
  }
  return message;
}

function argumentsText(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

const CHAT_STOP_REASONS: Readonly<Record<string, ModelStopReason>> = {
  stop: "end",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

/** A chat completion body as a model turn. Throws `ModelError` (`invalid-response`) when it is not one. */
export function readChatCompletion(completion: unknown, model: string): ModelTurn {
  const message = isRecord(completion) && Array.isArray(completion.choices) ? chatMessageOf(completion) : undefined;
  if (message === undefined) {
    throw new ModelError("invalid-response", model, `Model ${model} answered with no choices[0].message`);
  }
  const choice = (completion as { choices: Record<string, unknown>[] }).choices[0] as Record<string, unknown>;
  const text = typeof message.content === "string" ? message.content : "";
  const toolCalls = openaiChat.parseToolCalls(completion);
  // Echo only what every compatible server accepts, with the arguments text exactly as the model wrote it.
  const echo = chatAssistantMessage(text, []) as Record<string, unknown>;
  if (Array.isArray(message.tool_calls) && toolCalls.length > 0) {
    // The same entries parseToolCalls reads, so every echoed call gets its result.
    echo.tool_calls = message.tool_calls.flatMap((call) =>
      isRecord(call) && isRecord(call.function)
        ? [
            {
              id: call.id,
              type: "function",
              function: { name: call.function.name, arguments: argumentsText(call.function.arguments) },
            },
          ]
        : [],
    );
  }
  const rawStopReason = typeof choice.finish_reason === "string" ? choice.finish_reason : undefined;
  const usage = isRecord(completion) && isRecord(completion.usage) ? completion.usage : undefined;
  return {
    text,
    toolCalls,
    stopReason: (rawStopReason && CHAT_STOP_REASONS[rawStopReason]) || "other",
    ...(rawStopReason === undefined ? {} : { rawStopReason }),
    ...(usage === undefined
      ? {}
      : {
          usage: {
            inputTokens: count(usage, "prompt_tokens"),
            outputTokens: count(usage, "completion_tokens"),
            cacheReadTokens: count(usage.prompt_tokens_details, "cached_tokens"),
          },
        }),
    providerMessage: { provider: "openai-chat", value: echo },
  };
}

// ---------------------------------------------------------------- Responses

async function completeWithResponses(
  client: OpenAIClient,
  options: OpenAIModelOptions,
  request: ModelRequest,
  name: string,
  progress: StreamProgress,
): Promise<ModelTurn> {
  const strict = options.strict === true;
  const native = options.nativeToolSearch === true && (request.deferredTools?.length ?? 0) > 0;
  const deferred = native ? (request.deferredTools ?? []) : [];
  const tools: readonly unknown[] = native
    ? nativeResponsesTools(request.tools, deferred, strict)
    : openaiResponses.formatTools(request.tools, { strict });
  const body = {
    model: options.model,
    ...(request.systemPrompt === "" ? {} : { instructions: request.systemPrompt }),
    input: toResponsesInput(request.messages, native ? { toolSearch: { deferredTools: deferred, strict } } : {}),
    ...(tools.length === 0 ? {} : { tools }),
    ...(options.maxTokens === undefined ? {} : { max_output_tokens: options.maxTokens }),
  } as unknown as Parameters<OpenAIClient["responses"]["create"]>[0] & { stream?: false };
  if (options.stream !== true) {
    const response: unknown = await client.responses.create(body, { signal: request.signal });
    return readResponse(response, name);
  }
  // The raw event stream, not `responses.stream()`: that helper adds `parsed` fields to the output items, which
  // would then be echoed back. The final event carries the response exactly as a non-streamed request gets it.
  const events = await client.responses.create({ ...body, stream: true }, { signal: request.signal });
  progress.answered = true;
  const final = await readResponsesStream(events as AsyncIterable<unknown>, request, name);
  return readResponse(final, name);
}

/**
 * The tools sent up front (those of `tools` not deferred: a found tool is already among the deferred), with
 * `tool_search` as the API's client-executed tool search, then every deferred tool with `defer_loading: true`: the
 * same list every turn, whatever the searches found.
 */
function nativeResponsesTools(
  tools: readonly (AgentTool | ToolDescriptor)[],
  deferred: readonly (AgentTool | ToolDescriptor)[],
  strict: boolean,
): unknown[] {
  return [
    ...upFrontTools(tools, deferred).map((tool) =>
      descriptorOf(tool).name === TOOL_SEARCH_NAME
        ? formatResponsesToolSearch(tool)
        : openaiResponses.formatTools([tool], { strict })[0],
    ),
    ...openaiResponses.formatTools(deferred, { strict, deferLoading: true }),
  ];
}

/** The response a Responses event stream ends with, reporting text and tool-call deltas on the way. */
async function readResponsesStream(events: AsyncIterable<unknown>, request: ModelRequest, name: string) {
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
