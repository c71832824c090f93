// A model client for Anthropic Messages through the official SDK, loaded on first use.
import { isRecord, ownValue } from "../../core/json.js";
import type { AgentTool, ToolDescriptor } from "../../core/types.js";
import { ANTHROPIC_CODE_EXECUTION_TOOL, anthropic } from "../anthropic.js";
import type { AnthropicTool } from "../anthropic-wire.js";
import { ModelError } from "../errors.js";
import { upFrontTools } from "../shared.js";
import type { FormatToolResultsOptions } from "../types.js";
import { checkGenerationOptions, checkInteger, invalidOption, toolChoiceFor } from "./check-model-options.js";
import { mapTranscript } from "./map-transcript.js";
import { mergeExtraBody } from "./merge-extra-body.js";
import { baseUrlOf, count, loadSdk, sdkClientOptions, toModelError } from "./sdk-support.js";
import type {
  ModelClient,
  ModelConnectionOptions,
  ModelGenerationOptions,
  ModelRequest,
  ModelStopReason,
  ModelToolChoice,
  ModelTurn,
  ToolCallDelta,
  TranscriptMessage,
} from "./types.js";

/**
 * Options of `createAnthropicModel`. `temperature` is 0 to 1; `toolChoice` is sent as `tool_choice` (`required` as
 * `any`), `stopSequences` as `stop_sequences`.
 */
export interface AnthropicModelOptions extends ModelConnectionOptions, ModelGenerationOptions {
  /** e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** Default 4096. */
  readonly maxTokens?: number;
  /**
   * Extended thinking: `thinking: { type: "enabled", budget_tokens }`, at least 1024 and less than `maxTokens`.
   * Anthropic then refuses a `temperature` other than 1 and a `toolChoice` that forces a call (`required`, `{ tool }`).
   */
  readonly thinkingBudget?: number;
  /** Stream the reply, calling `onTextDelta` and `onToolCallDelta` as text and tool calls arrive. Default false. */
  readonly stream?: boolean;
  /**
   * Provider-native deferral (Anthropic tool search with `defer_loading`): the request's deferred tools go with
   * `defer_loading: true`, and a `tool_search` result that found tools goes back as `tool_reference` blocks, which
   * the API expands into their definitions. Default false (the provider-neutral form: `tool_search` and the found
   * tools as ordinary tools), because only models with tool search accept `defer_loading`; others answer 400.
   */
  readonly nativeToolSearch?: boolean;
  /**
   * Provider-native programmatic tool calling: every tool goes with `allowed_callers: ["direct",
   * "code_execution_20260120"]` and the request's tools end with the code execution tool, so the model may write a
   * program (run in Anthropic's container) that calls the tools; each such call comes back as a `tool_use` whose
   * `caller` is read into the call's (`{ type: "program", id }`) and dispatches like any other. Default false:
   * only models with code execution `20260120` accept it, and the code execution tool is billed.
   */
  readonly programmaticToolCalling?: boolean;
}

type AnthropicSdk = typeof import("@anthropic-ai/sdk");
type AnthropicClient = InstanceType<AnthropicSdk["default"]>;

/**
 * A `ModelClient` for Anthropic's Messages API (`@anthropic-ai/sdk`, loaded on the first turn). The assistant's
 * content is kept as sent and echoed back unchanged on later turns (thinking blocks included).
 */
export function createAnthropicModel(options: AnthropicModelOptions): ModelClient {
  const name = `anthropic:${options.model}`;
  checkAnthropicOptions(name, options);
  let client: Promise<AnthropicClient> | undefined;
  const getClient = () => {
    client ??= loadSdk(() => import("@anthropic-ai/sdk"), "@anthropic-ai/sdk", name).then(
      (sdk) => new sdk.default(sdkClientOptions(options)),
    );
    return client;
  };
  return {
    name,
    async complete(request) {
      const { signal } = request;
      let baseURL: string | undefined;
      const progress = { answered: false };
      try {
        const sdk = await getClient();
        baseURL = baseUrlOf(sdk);
        const body = anthropicRequestBody(options, request) as unknown as Parameters<
          AnthropicClient["messages"]["create"]
        >[0] & { stream?: false };
        let message: unknown;
        if (options.stream === true) {
          const stream = sdk.messages.stream(body, { signal });
          stream.on("connect", () => {
            progress.answered = true;
          });
          if (request.onTextDelta !== undefined) stream.on("text", request.onTextDelta);
          const { onToolCallDelta } = request;
          if (onToolCallDelta !== undefined) stream.on("streamEvent", toolCallDeltas(onToolCallDelta));
          message = await stream.finalMessage();
        } else {
          message = await sdk.messages.create(body, { signal });
        }
        const turn = readAnthropicMessage(message, name);
        if (options.stream !== true && turn.text !== "") request.onTextDelta?.(turn.text);
        return turn;
      } catch (error) {
        throw toModelError(error, name, signal, baseURL, progress.answered);
      }
    },
  };
}

/** Throws `ModelError` (`invalid-model-options`) for an option the Messages API would refuse. */
function checkAnthropicOptions(name: string, options: AnthropicModelOptions): void {
  checkGenerationOptions(name, options, { maxTemperature: 1, maxStopSequences: Infinity });
  const budget = options.thinkingBudget;
  if (budget === undefined) return;
  const maxTokens = options.maxTokens ?? 4096;
  if (maxTokens <= 1024) {
    throw invalidOption(name, `thinkingBudget needs maxTokens above 1024 (the budget is part of it), got ${maxTokens}`);
  }
  checkInteger(name, "thinkingBudget (less than maxTokens)", budget, 1024, maxTokens - 1);
  if (options.temperature !== undefined && options.temperature !== 1) {
    throw invalidOption(name, `Anthropic takes no temperature but 1 with thinking, got ${options.temperature}`);
  }
  const choice = options.toolChoice;
  if (choice === "required" || typeof choice === "object") {
    throw invalidOption(
      name,
      'Anthropic takes toolChoice "auto" or "none" only with thinking (it cannot force a call)',
    );
  }
}

type AnthropicBodyOptions = Pick<
  AnthropicModelOptions,
  | "model"
  | "maxTokens"
  | "nativeToolSearch"
  | "programmaticToolCalling"
  | "temperature"
  | "toolChoice"
  | "stopSequences"
  | "thinkingBudget"
  | "extraBody"
>;

/**
 * The Messages API request body of one turn (without `stream`): the model, the token limit, the system prompt when
 * there is one, the tools payload when there are tools, the transcript as Anthropic messages, the code execution
 * container of the last reply when it ran in one, then the generation options that are set and `extraBody`. Not exported by the package: the client's own seam, which the benchmark uses
 * to answer a turn without the SDK.
 */
export function anthropicRequestBody(
  options: AnthropicBodyOptions,
  request: Pick<ModelRequest, "systemPrompt" | "messages" | "tools" | "deferredTools">,
): Record<string, unknown> {
  const name = `anthropic:${options.model}`;
  const native = options.nativeToolSearch === true && (request.deferredTools?.length ?? 0) > 0;
  const deferred = native ? (request.deferredTools ?? []) : [];
  const programmaticToolCalling = options.programmaticToolCalling === true;
  const tools: unknown[] = native
    ? nativeTools(request.tools, deferred, programmaticToolCalling)
    : anthropic.formatTools(request.tools, { programmaticToolCalling });
  if (programmaticToolCalling && tools.length > 0) tools.push(ANTHROPIC_CODE_EXECUTION_TOOL);
  const choice = toolChoiceFor(name, options.toolChoice, request.tools);
  const container = lastContainer(request.messages);
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: options.maxTokens ?? 4096,
    ...(request.systemPrompt === "" ? {} : { system: request.systemPrompt }),
    ...(tools.length === 0 ? {} : { tools }),
    messages: toAnthropicMessages(request.messages, native ? { toolSearch: { deferredTools: deferred } } : {}),
    ...(container === undefined ? {} : { container }),
  };
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (choice !== undefined) body.tool_choice = anthropicToolChoice(choice);
  if (options.stopSequences !== undefined) body.stop_sequences = [...options.stopSequences];
  if (options.thinkingBudget !== undefined) {
    body.thinking = { type: "enabled", budget_tokens: options.thinkingBudget };
  }
  return mergeExtraBody(body, options.extraBody);
}

/** `tool_choice` as the Messages API takes it. */
function anthropicToolChoice(choice: ModelToolChoice): Record<string, string> {
  if (typeof choice === "object") return { type: "tool", name: choice.tool };
  return { type: choice === "required" ? "any" : choice };
}

/**
 * The tools sent up front (those of `tools` not deferred: a found tool is already among the deferred), then every
 * deferred tool with `defer_loading: true`: the same list every turn, whatever the searches found.
 */
function nativeTools(
  tools: readonly (AgentTool | ToolDescriptor)[],
  deferred: readonly (AgentTool | ToolDescriptor)[],
  programmaticToolCalling: boolean,
): AnthropicTool[] {
  return [
    ...anthropic.formatTools(upFrontTools(tools, deferred), { programmaticToolCalling }),
    ...anthropic.formatTools(deferred, { deferLoading: true, programmaticToolCalling }),
  ];
}

/**
 * The code execution container of the transcript's last assistant message, when that reply ran in one: the API
 * refuses the next request without it while a program waits for tool results ("container_id is required when there
 * are pending tool uses generated by code execution with tools"). An older container is not sent: it may have expired.
 */
function lastContainer(messages: readonly TranscriptMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as TranscriptMessage;
    if (message.role !== "assistant") continue;
    const raw = message.providerMessage;
    return raw?.provider === "anthropic" && typeof raw.container === "string" ? raw.container : undefined;
  }
  return undefined;
}

/**
 * A listener for the stream's raw events that reports each `tool_use` block as tool-call deltas: its id and name
 * when the block starts, then each piece of its input JSON. Calls are numbered in the order their blocks start.
 */
function toolCallDeltas(onToolCallDelta: (delta: ToolCallDelta) => void): (event: unknown) => void {
  const callIndexByBlock = new Map<number, number>();
  return (event) => {
    if (!isRecord(event) || typeof event.index !== "number") return;
    if (event.type === "content_block_start" && isRecord(event.content_block)) {
      const block = event.content_block;
      if (block.type !== "tool_use") return;
      const index = callIndexByBlock.size;
      callIndexByBlock.set(event.index, index);
      onToolCallDelta({
        index,
        ...(typeof block.id === "string" ? { id: block.id } : {}),
        ...(typeof block.name === "string" ? { name: block.name } : {}),
        argumentsDelta: "",
      });
    } else if (event.type === "content_block_delta" && isRecord(event.delta)) {
      const index = callIndexByBlock.get(event.index);
      const piece = event.delta.partial_json;
      if (index !== undefined && event.delta.type === "input_json_delta" && typeof piece === "string" && piece !== "") {
        onToolCallDelta({ index, argumentsDelta: piece });
      }
    }
  };
}

/**
 * The transcript as Anthropic messages: assistant content echoed as sent, tool results as one user message (with
 * `options.toolSearch`, a tool search's as `tool_reference` blocks).
 */
export function toAnthropicMessages(
  messages: readonly TranscriptMessage[],
  options: FormatToolResultsOptions = {},
): unknown[] {
  return mapTranscript(messages, {
    assistant: (message) => {
      const raw = message.providerMessage;
      return [{ role: "assistant", content: raw?.provider === "anthropic" ? raw.value : assistantContent(message) }];
    },
    results: (results, calls) => [anthropic.formatToolResults(results, calls, options)],
  });
}

function assistantContent(message: Extract<TranscriptMessage, { role: "assistant" }>): unknown[] {
  const content: unknown[] = message.text === "" ? [] : [{ type: "text", text: message.text }];
  for (const call of message.toolCalls) {
    content.push({ type: "tool_use", id: call.id, name: call.name, input: isRecord(call.input) ? call.input : {} });
  }
  return content;
}

const STOP_REASONS: Readonly<Record<string, ModelStopReason>> = {
  end_turn: "end",
  stop_sequence: "end",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
};

/** A Messages API response body as a model turn. Throws `ModelError` (`invalid-response`) when it is not one. */
export function readAnthropicMessage(message: unknown, model: string): ModelTurn {
  if (!isRecord(message) || !Array.isArray(message.content)) {
    throw new ModelError("invalid-response", model, `Model ${model} answered with something that is not a message`);
  }
  let text = "";
  for (const block of message.content) {
    // As join("") reads it.
    if (isRecord(block) && block.type === "text" && block.text != null) text += String(block.text);
  }
  const rawStopReason = typeof message.stop_reason === "string" ? message.stop_reason : undefined;
  // Optional fields are set one by one, not spread in: this runs on every turn.
  const turn: { -readonly [K in keyof ModelTurn]: ModelTurn[K] } = {
    text,
    toolCalls: anthropic.parseToolCalls(message),
    stopReason: (rawStopReason && STOP_REASONS[rawStopReason]) || "other",
  };
  if (rawStopReason !== undefined) turn.rawStopReason = rawStopReason;
  if (isRecord(message.usage)) {
    turn.usage = {
      inputTokens: count(message.usage, "input_tokens"),
      outputTokens: count(message.usage, "output_tokens"),
      cacheReadTokens: count(message.usage, "cache_read_input_tokens"),
      cacheWriteTokens: count(message.usage, "cache_creation_input_tokens"),
    };
  }
  const container = isRecord(message.container) ? ownValue(message.container, "id") : undefined;
  turn.providerMessage =
    typeof container === "string" && container !== ""
      ? { provider: "anthropic", value: message.content, container }
      : { provider: "anthropic", value: message.content };
  return turn;
}
