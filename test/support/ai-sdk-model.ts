// The AI SDK's mock model (ai/test) scripted as a queue of turns, for the toolwire/ai-sdk tests: the AI SDK 6's
// MockLanguageModelV3, or under the AI SDK 7 its own MockLanguageModelV4 (same calls and results, 7's prompt parts).
import { simulateReadableStream } from "ai";
import * as aiTest from "ai/test";
import { MockLanguageModelV3 } from "ai/test";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
/** What the model was sent on one call. */
export type AiSdkPrompt = CallOptions["prompt"];

/** One turn of the scripted model: tool calls (input as the model writes it: an object or raw JSON text), or text. */
export type AiSdkTurn = { calls: { id: string; name: string; input: unknown }[] } | { text: string };

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function contentOf(turn: AiSdkTurn) {
  if ("text" in turn) return [{ type: "text" as const, text: turn.text }];
  return turn.calls.map((call) => ({
    type: "tool-call" as const,
    toolCallId: call.id,
    toolName: call.name,
    input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
  }));
}

function finishOf(turn: AiSdkTurn) {
  return { unified: "text" in turn ? ("stop" as const) : ("tool-calls" as const), raw: undefined };
}

/** A mock model answering `turns` in order, one per call (`generateText`); `prompts` holds what it was sent. */
export function scriptedAiSdkModel(turns: AiSdkTurn[]) {
  const prompts: AiSdkPrompt[] = [];
  let next = 0;
  const Mock: typeof MockLanguageModelV3 =
    "MockLanguageModelV4" in aiTest ? (aiTest.MockLanguageModelV4 as typeof MockLanguageModelV3) : MockLanguageModelV3;
  const model = new Mock({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const turn = turns[next++];
      if (turn === undefined) throw new Error("the scripted model ran out of turns");
      return { content: contentOf(turn), finishReason: finishOf(turn), usage: USAGE, warnings: [] };
    },
    doStream: async (options) => {
      prompts.push(options.prompt);
      const turn = turns[next++];
      if (turn === undefined) throw new Error("the scripted model ran out of turns");
      const parts = contentOf(turn).map((part) =>
        part.type === "text"
          ? [
              { type: "text-start" as const, id: "t" },
              { type: "text-delta" as const, id: "t", delta: part.text },
              { type: "text-end" as const, id: "t" },
            ]
          : [part],
      );
      const chunks = [...parts.flat(), { type: "finish" as const, finishReason: finishOf(turn), usage: USAGE }];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return { model, prompts };
}

/** The tool-result parts of the last tool message of a prompt: what the model was shown of its calls. */
export function toolResultsIn(prompt: AiSdkPrompt | undefined) {
  const messages = (prompt ?? []).filter((message) => message.role === "tool");
  const last = messages.at(-1);
  return last === undefined ? [] : last.content.filter((part) => part.type === "tool-result");
}
