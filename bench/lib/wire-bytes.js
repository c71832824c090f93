// A scripted model client that counts what each request sends the model, in the Anthropic Messages and OpenAI Chat
// wire formats, built by toolwire's own model clients' request code.
import { anthropicRequestBody } from "../../dist/providers/clients/anthropic-model.js";
import { toChatMessages } from "../../dist/providers/clients/openai-chat-turn.js";
import { openaiChat } from "../../dist/providers/index.js";

const bytes = (value) => Buffer.byteLength(JSON.stringify(value), "utf8");

/** The OpenAI Chat Completions body of one request, as `createOpenAIModel` builds it (no options set). */
function chatRequestBody(request) {
  const tools = openaiChat.formatTools(request.tools);
  return {
    model: "scripted",
    messages: [
      ...(request.systemPrompt === "" ? [] : [{ role: "system", content: request.systemPrompt }]),
      ...toChatMessages(request.messages),
    ],
    ...(tools.length === 0 ? {} : { tools }),
  };
}

/**
 * A `ModelClient` answering with `turns` in order (each `(messages) => { text, toolCalls }`), and the bytes of each
 * request it was sent: `requests[i] = { anthropic, openaiChat, toolsAnthropic, toolsOpenaiChat }`.
 */
export function countingModel(turns) {
  const requests = [];
  let next = 0;
  const model = {
    name: "scripted:wire-bytes",
    async complete(request) {
      const anthropicBody = anthropicRequestBody({ model: "scripted" }, request);
      const chatBody = chatRequestBody(request);
      requests.push({
        anthropic: bytes(anthropicBody),
        openaiChat: bytes(chatBody),
        toolsAnthropic: bytes(anthropicBody.tools ?? []),
        toolsOpenaiChat: bytes(chatBody.tools ?? []),
      });
      const turn = turns[next++];
      if (turn === undefined) throw new Error("the scripted model ran out of turns");
      const { text, toolCalls } = turn(request.messages);
      return { text, toolCalls, stopReason: toolCalls.length === 0 ? "end" : "tool_use" };
    },
  };
  return { model, requests };
}

/** The sums over a run's requests. */
export function totalsOf(requests) {
  const sum = (key) => requests.reduce((total, request) => total + request[key], 0);
  return {
    requests: requests.length,
    anthropic: sum("anthropic"),
    openaiChat: sum("openaiChat"),
    toolsAnthropic: sum("toolsAnthropic"),
    toolsOpenaiChat: sum("toolsOpenaiChat"),
  };
}
