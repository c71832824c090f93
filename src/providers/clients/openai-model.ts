// A model client for OpenAI-compatible servers (OpenAI, Ollama, vLLM, llama.cpp) through the official SDK, over Chat
// Completions or the Responses API. The request bodies are built here; openai-chat-turn.ts and openai-responses-turn.ts
// write the transcript into them and read the replies.
import { openaiChat } from "../openai-chat.js";
import { OPENAI_PROGRAMMATIC_TOOL, openaiResponses } from "../openai-responses.js";
import { checkGenerationOptions, checkOneOf, toolChoiceFor } from "./check-model-options.js";
import { mergeExtraBody } from "./merge-extra-body.js";
import { readChatCompletion, reportChatToolCallDeltas, toChatMessages } from "./openai-chat-turn.js";
import { nativeResponsesTools, readResponse, readResponsesStream, toResponsesInput } from "./openai-responses-turn.js";
import { baseUrlOf, loadSdk, sdkClientOptions, toModelError } from "./sdk-support.js";
import type {
  ModelClient,
  ModelConnectionOptions,
  ModelGenerationOptions,
  ModelRequest,
  ModelToolChoice,
  ModelTurn,
} from "./types.js";

/** The reasoning efforts OpenAI takes (which ones a model takes depends on the model). */
const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

/**
 * Options of `createOpenAIModel`. With a `baseURL` (e.g. `http://127.0.0.1:11434/v1` for Ollama) and no key
 * anywhere, a placeholder key is sent: local servers need none. `temperature` is 0 to 2; `toolChoice` is sent as
 * `tool_choice`; `stopSequences` as Chat's `stop` (at most 4; the Responses API has no stop sequences).
 */
export interface OpenAIModelOptions extends ModelConnectionOptions, ModelGenerationOptions {
  /** e.g. `gpt-4.1`, or the model name a local server knows (`llama3.1`). */
  readonly model: string;
  /** `chat` (Chat Completions, what compatible servers serve) or `responses`. Default `chat`. */
  readonly api?: "chat" | "responses";
  /** Strict function calling: `strict: true` tools with adapted schemas. Default false. */
  readonly strict?: boolean;
  /**
   * Chat's `max_tokens` (`max_completion_tokens` for reasoning models: names starting `o1`, `o3`, `o4` or `gpt-5`),
   * the Responses API's `max_output_tokens`. Default: the server's.
   */
  readonly maxTokens?: number;
  /** Stream the reply, calling `onTextDelta` and `onToolCallDelta` as text and tool calls arrive. Default false. */
  readonly stream?: boolean;
  /**
   * Reasoning models: Chat's `reasoning_effort`, the Responses API's `reasoning.effort`. Which values a model takes
   * depends on the model; a newer value can go in `extraBody`.
   */
  readonly reasoningEffort?: (typeof REASONING_EFFORTS)[number];
  /**
   * Responses only: provider-native deferral (the Responses API's `tool_search`, run by the client). The request's
   * deferred tools go as function tools with `defer_loading: true`, `tool_search` as `{ type: "tool_search",
   * execution: "client" }`; the model's `tool_search_call` runs the session's `tool_search` and is answered with a
   * `tool_search_output` item holding the found tools' definitions. Default false (the provider-neutral form),
   * because only models with tool search accept it (others answer 400). Chat Completions ignores it.
   */
  readonly nativeToolSearch?: boolean;
  /**
   * Responses only: provider-native programmatic tool calling. Every function tool goes with `allowed_callers:
   * ["direct", "programmatic"]` and the request's tools end with `{ type: "programmatic_tool_calling" }`, so the
   * model may write a program (run by OpenAI) that calls the tools; each such call comes back as a `function_call`
   * whose `caller` is read into the call's (`{ type: "program", id }`), dispatches like any other and is answered
   * with that `caller` echoed. Default false: only models with programmatic tool calling accept it. Chat
   * Completions ignores it.
   */
  readonly programmaticToolCalling?: boolean;
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
  checkGenerationOptions(name, options, { maxTemperature: 2, maxStopSequences: api === "responses" ? 0 : 4 });
  if (options.reasoningEffort !== undefined) {
    checkOneOf(name, "reasoningEffort", options.reasoningEffort, REASONING_EFFORTS);
  }
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
  const choice = toolChoiceFor(name, options.toolChoice, request.tools);
  const body = mergeExtraBody(
    {
      model: options.model,
      messages,
      ...(tools.length === 0 ? {} : { tools }),
      ...(options.maxTokens === undefined ? {} : { [chatMaxTokensField(options.model)]: options.maxTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(choice === undefined ? {} : { tool_choice: chatToolChoice(choice) }),
      ...(options.stopSequences === undefined ? {} : { stop: [...options.stopSequences] }),
      ...(options.reasoningEffort === undefined ? {} : { reasoning_effort: options.reasoningEffort }),
    },
    options.extraBody,
  ) as unknown as Parameters<OpenAIClient["chat"]["completions"]["create"]>[0] & { stream?: false };
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

/** Model names that refuse Chat's `max_tokens` and take `max_completion_tokens` instead (OpenAI's reasoning models). */
const COMPLETION_TOKENS_MODELS = /^(o1|o3|o4|gpt-5)/;

/**
 * The Chat field of `maxTokens`. OpenAI's reasoning models refuse `max_tokens`; the other models keep it, since the
 * compatible servers (Ollama, vLLM, llama.cpp and others) all read `max_tokens` and not all of them read
 * `max_completion_tokens`.
 */
function chatMaxTokensField(model: string): "max_tokens" | "max_completion_tokens" {
  return COMPLETION_TOKENS_MODELS.test(model) ? "max_completion_tokens" : "max_tokens";
}

/** `tool_choice` as Chat Completions takes it. */
function chatToolChoice(choice: ModelToolChoice): unknown {
  return typeof choice === "object" ? { type: "function", function: { name: choice.tool } } : choice;
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
  const programmaticToolCalling = options.programmaticToolCalling === true;
  const native = options.nativeToolSearch === true && (request.deferredTools?.length ?? 0) > 0;
  const deferred = native ? (request.deferredTools ?? []) : [];
  const tools: unknown[] = native
    ? nativeResponsesTools(request.tools, deferred, { strict, programmaticToolCalling })
    : openaiResponses.formatTools(request.tools, { strict, programmaticToolCalling });
  if (programmaticToolCalling && tools.length > 0) tools.push(OPENAI_PROGRAMMATIC_TOOL);
  const choice = toolChoiceFor(name, options.toolChoice, request.tools);
  const body = mergeExtraBody(
    {
      model: options.model,
      ...(request.systemPrompt === "" ? {} : { instructions: request.systemPrompt }),
      input: toResponsesInput(
        request.messages,
        native ? { toolSearch: { deferredTools: deferred, strict, programmaticToolCalling } } : {},
      ),
      ...(tools.length === 0 ? {} : { tools }),
      ...(options.maxTokens === undefined ? {} : { max_output_tokens: options.maxTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(choice === undefined ? {} : { tool_choice: responsesToolChoice(choice) }),
      ...(options.reasoningEffort === undefined ? {} : { reasoning: { effort: options.reasoningEffort } }),
    },
    options.extraBody,
  ) as unknown as Parameters<OpenAIClient["responses"]["create"]>[0] & { stream?: false };
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

/** `tool_choice` as the Responses API takes it. */
function responsesToolChoice(choice: ModelToolChoice): unknown {
  return typeof choice === "object" ? { type: "function", name: choice.tool } : choice;
}
