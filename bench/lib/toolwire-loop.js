// A whole run of toolwire's `runAgent` over the Anthropic model client's wire format, for any build of toolwire.
import { do_not_optimize } from "mitata";
import { anthropicAnswers } from "./hand-loop.js";
import { NOOP_DESCRIPTION, NOOP_NAME, NOOP_SCHEMA, noop } from "./workload.js";

/**
 * The Anthropic model client with the network taken out: each turn builds the request body as
 * `createAnthropicModel` does (tools payload, transcript as Anthropic messages) and reads a prebuilt response
 * body as it does (`readAnthropicMessage`); only the SDK's HTTP round trip is replaced. It asks for `calls`
 * first, then, once the last transcript message holds their results, ends the run with text. `client` is the
 * build's `dist/providers/clients/anthropic-model.js`.
 */
export function anthropicWireModel(client, calls) {
  const options = { model: "scripted" };
  const name = "anthropic:scripted";
  const { callTurn, endTurn } = anthropicAnswers(calls);
  return {
    name,
    async complete(request) {
      do_not_optimize(client.anthropicRequestBody(options, request));
      const answered = request.messages.at(-1)?.role === "tool";
      const turn = client.readAnthropicMessage(answered ? endTurn : callTurn, name);
      if (turn.text !== "") request.onTextDelta?.(turn.text);
      return turn;
    },
  };
}

/**
 * One whole run of `runAgent` as the benchmark times it: a session over the no-op tool, the wire model above, every
 * event read with `for await`; resolves to the `done` event. `api` is the build's root module.
 */
export function toolwireLoopRun(api, client, calls) {
  const tool = api.defineTool({
    name: NOOP_NAME,
    description: NOOP_DESCRIPTION,
    inputSchema: NOOP_SCHEMA,
    execute: noop,
  });
  const session = api.createAgentSession({ registry: api.createToolRegistry({ custom: [tool] }) });
  const model = anthropicWireModel(client, calls);
  return async () => {
    let done;
    for await (const event of api.runAgent({ session, model, prompt: "go" })) {
      if (event.type === "done") done = event;
    }
    return done;
  };
}

/** The tool results and stop reason of one run (a `done` event of runAgent or of the hand-written loop). */
export function loopOutcome(done) {
  const results = (done?.transcript ?? []).flatMap((message) =>
    message.role === "tool"
      ? message.results
      : message.role === "user" && Array.isArray(message.content)
        ? message.content
        : [],
  );
  return {
    reason: done?.reason,
    turns: done?.turns,
    results: results.map((block) => ({ text: block.content?.[0]?.text, isError: block.is_error === true })),
  };
}
