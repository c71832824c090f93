// OpenAI Chat Completions: { type: "function", function } tools, message.tool_calls in, role "tool" messages out.
import { isRecord } from "../core/json.js";
import type { OpenAIChatCompletionLike, OpenAIChatTool, OpenAIChatToolMessage } from "./openai-chat-wire.js";
import { openAIParameters } from "./schema-adapt.js";
import {
  cachedToolEntries,
  contentAsText,
  errorPrefixed,
  pairResultsWithCalls,
  parseArgumentsText,
  stringField,
} from "./shared.js";
import type { ProviderAdapter, ToolCall } from "./types.js";

/**
 * The OpenAI Chat Completions adapter (also what Ollama, vLLM and llama.cpp serve). `arguments` text is parsed
 * (raw text kept when invalid, `{}` when blank); results are `role: "tool"` messages of text, errors prefixed
 * `Error: `, images described in words. `strict: true` sets `strict` and sends the strict-mode schema, per tool: a
 * tool whose schema cannot be made strict goes as without it (`listNonStrictTools` says which and why). Without
 * strict, an array schema without `items` gets `items: {}` (OpenAI refuses it otherwise).
 */
export const openaiChat: ProviderAdapter<OpenAIChatTool, OpenAIChatToolMessage[], OpenAIChatCompletionLike> = {
  name: "openai-chat",
  formatTools(tools, options) {
    const strict = options?.strict === true;
    return cachedToolEntries(tools, strict ? "openai-chat-strict" : "openai-chat", (descriptor): OpenAIChatTool => {
      const sent = openAIParameters(descriptor.inputSchema, strict);
      return {
        type: "function",
        function: {
          name: descriptor.name,
          description: descriptor.description,
          parameters: sent.parameters,
          ...(sent.strict ? { strict: true } : {}),
        },
      };
    });
  },
  parseToolCalls(response: unknown) {
    const message = chatMessageOf(response);
    if (message === undefined || !Array.isArray(message.tool_calls)) return [];
    const calls: ToolCall[] = [];
    for (const call of message.tool_calls) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      calls.push({
        id: stringField(call, "id"),
        name: stringField(call.function, "name"),
        input: parseArgumentsText(call.function.arguments),
      });
    }
    return calls;
  },
  formatToolResults(results, calls) {
    return pairResultsWithCalls(results, calls).map(({ result }) => ({
      role: "tool",
      tool_call_id: result.tool_use_id,
      content: errorPrefixed(contentAsText(result.content), result.is_error),
    }));
  },
};

/** The assistant message of a chat completion (its first choice), or the message itself when given one. */
export function chatMessageOf(response: unknown): Record<string, unknown> | undefined {
  if (!isRecord(response)) return undefined;
  if (Array.isArray(response.choices)) {
    const choice = response.choices[0];
    return isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
  }
  return response;
}
