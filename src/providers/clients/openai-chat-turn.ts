// Chat Completions as data: the transcript as messages, a completion as a model turn, a streamed chunk as tool-call
// deltas.
import { isRecord } from "../../core/json.js";
import { ModelError } from "../errors.js";
import { chatMessageOf, openaiChat } from "../openai-chat.js";
import type { ToolCall } from "../types.js";
import { mapTranscript } from "./map-transcript.js";
import { count } from "./sdk-support.js";
import type { ModelStopReason, ModelTurn, ToolCallDelta, TranscriptMessage } from "./types.js";

/** The tool-call pieces of one streamed chunk as deltas: `index` is the chunk's own (Chat numbers calls from 0). */
export function reportChatToolCallDeltas(chunk: unknown, onToolCallDelta: (delta: ToolCallDelta) => void): void {
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

/** A call's arguments as text: as the model wrote them when text, else as JSON. */
export function argumentsText(input: unknown): string {
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
