// The agent loop written by hand over the Anthropic wire format: the floor a whole run of `runAgent` is weighed against.
import { Ajv } from "ajv";
import { do_not_optimize } from "mitata";
import { NOOP_DESCRIPTION, NOOP_NAME, NOOP_SCHEMA, noop } from "./workload.js";

/** A Messages API response body as the HTTP answer would give it: `content`, `stop_reason` and `usage`. */
export function anthropicAnswer(content, stopReason) {
  return {
    id: "msg_scripted",
    type: "message",
    role: "assistant",
    model: "scripted",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

/** The two answers of a run that makes `calls`: the turn asking for them, then the model's end turn. */
export function anthropicAnswers(calls) {
  const uses = calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input }));
  return {
    callTurn: anthropicAnswer([{ type: "text", text: "Calling tools." }, ...uses], "tool_use"),
    endTurn: anthropicAnswer([{ type: "text", text: "Done." }], "end_turn"),
  };
}

/**
 * A whole run written by hand, as an async generator yielding the events `runAgent` yields (turn_start,
 * model_text_delta, model_text, usage, tool_call, tool_result, turn_end, then done): each turn builds the request
 * body (the tools payload, built once, and the conversation kept as Anthropic messages), the scripted model answers
 * (the second answer once the last message holds tool results), the answer is read (text, tool_use blocks, usage),
 * and each call is copied, validated by ajv with toolwire's options, run and answered with a `tool_result` block.
 * No timers, clock, hooks, abort or lookups: the least code that does the job.
 */
export function createHandLoop(calls) {
  const { callTurn, endTurn } = anthropicAnswers(calls);
  const tools = [{ name: NOOP_NAME, description: NOOP_DESCRIPTION, input_schema: NOOP_SCHEMA }];
  const executors = { [NOOP_NAME]: noop };
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, addUsedSchema: false, logger: false });
  const validators = { [NOOP_NAME]: ajv.compile(NOOP_SCHEMA) };

  async function send(body) {
    do_not_optimize(body);
    return body.messages.at(-1).content[0]?.type === "tool_result" ? endTurn : callTurn;
  }

  async function runTool(call) {
    const input = { ...call.input };
    const validate = validators[call.name];
    if (!validate(input)) {
      let text = `Invalid input for tool ${call.name}:`;
      for (const error of validate.errors) text += `\n- input${error.instancePath}: ${error.message}`;
      return { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }], is_error: true };
    }
    const text = await executors[call.name](input);
    return { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }] };
  }

  return async function* run(prompt) {
    const messages = [{ role: "user", content: prompt }];
    let total = { inputTokens: 0, outputTokens: 0 };
    for (let turn = 1; ; turn++) {
      yield { type: "turn_start", turn };
      const answer = await send({ model: "scripted", max_tokens: 4096, tools, messages });
      let text = "";
      const uses = [];
      for (const block of answer.content) {
        if (block.type === "text") text += block.text;
        else if (block.type === "tool_use") uses.push({ id: block.id, name: block.name, input: block.input });
      }
      messages.push({ role: "assistant", content: answer.content });
      if (text !== "") {
        yield { type: "model_text_delta", turn, text };
        yield { type: "model_text", turn, text };
      }
      const usage = { inputTokens: answer.usage.input_tokens, outputTokens: answer.usage.output_tokens };
      total = {
        inputTokens: total.inputTokens + usage.inputTokens,
        outputTokens: total.outputTokens + usage.outputTokens,
      };
      yield { type: "usage", turn, usage, total };
      const stopReason = answer.stop_reason === "tool_use" ? "tool_use" : "end";
      if (uses.length === 0) {
        yield { type: "turn_end", turn, stopReason, toolCalls: 0 };
        yield { type: "done", reason: "completed", turns: turn, usage: total, transcript: [...messages] };
        return messages;
      }
      for (const call of uses) yield { type: "tool_call", turn, call };
      const results = [];
      for (const call of uses) {
        const result = await runTool(call);
        results.push(result);
        yield { type: "tool_result", turn, call, result };
      }
      messages.push({ role: "user", content: results });
      yield { type: "turn_end", turn, stopReason, toolCalls: uses.length };
    }
  };
}
