// A fake OpenAI Agents SDK Model answering a queue of scripted turns, for the toolwire/openai-agents tests.
import { type Model, type ModelRequest, Usage } from "@openai/agents-core";

/** One turn: function calls (arguments as the model writes them: an object or raw JSON text), or a message. */
export type AgentsTurn = { calls: { id: string; name: string; input: unknown }[] } | { text: string };

/** A model answering `turns` in order, one per request; `requests` holds what it was sent. */
export function scriptedAgentsModel(turns: AgentsTurn[]) {
  const requests: ModelRequest[] = [];
  let next = 0;
  const model: Model = {
    async getResponse(request) {
      requests.push(request);
      const turn = turns[next++];
      if (turn === undefined) throw new Error("the scripted model ran out of turns");
      const output =
        "text" in turn
          ? [
              {
                type: "message" as const,
                role: "assistant" as const,
                status: "completed" as const,
                content: [{ type: "output_text" as const, text: turn.text }],
              },
            ]
          : turn.calls.map((call) => ({
              type: "function_call" as const,
              callId: call.id,
              name: call.name,
              status: "completed" as const,
              arguments: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
            }));
      return { usage: new Usage(), output, responseId: `scripted-${next}` };
    },
    // biome-ignore lint/correctness/useYield: the scripted model does not stream
    async *getStreamedResponse() {
      throw new Error("the scripted model does not stream");
    },
  };
  return { model, requests };
}

/** The function_call_result items of a request's input: what the model was shown of its calls. */
export function functionResultsIn(request: ModelRequest | undefined) {
  const input = request?.input;
  if (!Array.isArray(input)) return [];
  return input.filter((item) => item.type === "function_call_result");
}
