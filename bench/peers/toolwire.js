// toolwire's side of the benchmark: turns of N calls through a session, one call with hooks, registries of N tools,
// and a whole run of the agent loop over the Anthropic model client's wire format.

import { do_not_optimize } from "mitata";
import * as toolwire from "../../dist/index.js";
import { anthropicRequestBody, readAnthropicMessage } from "../../dist/providers/clients/anthropic-model.js";
import { anthropic } from "../../dist/providers/index.js";
import { checkResults } from "../lib/checks.js";
import { floorCases } from "../lib/floor.js";
import { buildToolSpecs } from "../lib/tool-sets.js";
import {
  CALL_COUNTS,
  NOOP_DESCRIPTION,
  NOOP_NAME,
  NOOP_SCHEMA,
  noop,
  TOOL_COUNTS,
  turnCalls,
  validInput,
} from "../lib/workload.js";

const { buildToolPlan, createAgentSession, createToolRegistry, defineTool, runAgent } = toolwire;

/**
 * How a turn's calls are read and its tools payload built: with the Anthropic adapter when this
 * build exports it, else the same shapes built here (the adapter lives on the providers branch).
 */
export const wire =
  typeof anthropic?.formatTools === "function"
    ? {
        via: "anthropic adapter",
        parseToolCalls: (response) => anthropic.parseToolCalls(response),
        formatToolResults: (results, calls) => anthropic.formatToolResults(results, calls),
        formatTools: (tools) => anthropic.formatTools(tools),
      }
    : {
        via: "Anthropic shapes built in the bench (no provider adapter in this build)",
        parseToolCalls: (response) =>
          response.content
            .filter((block) => block.type === "tool_use")
            .map((block) => ({ id: block.id, name: block.name, input: block.input })),
        formatToolResults: (results) => ({ role: "user", content: results }),
        formatTools: (tools) =>
          Array.from(tools, (tool) => ({
            name: tool.descriptor.name,
            description: tool.descriptor.description,
            input_schema: tool.descriptor.inputSchema,
          })),
      };

function noopTool() {
  return defineTool({ name: NOOP_NAME, description: NOOP_DESCRIPTION, inputSchema: NOOP_SCHEMA, execute: noop });
}

/** An Anthropic-shaped assistant message asking for `calls` (what a scripted model answers). */
function scriptedResponse(calls) {
  const content = [{ type: "text", text: "Calling tools." }];
  for (const call of calls) content.push({ type: "tool_use", id: call.id, name: call.name, input: call.input });
  return { role: "assistant", content, stop_reason: calls.length === 0 ? "end_turn" : "tool_use" };
}

function asChecked(message) {
  return message.content.map((block) => ({ text: block.content[0]?.text, isError: block.is_error === true }));
}

/** One model turn: the scripted model answers, its calls are dispatched and the results message built. */
function turnOver(session, calls) {
  const response = scriptedResponse(calls);
  const model = async () => response;
  return async () => {
    const message = await model();
    const uses = wire.parseToolCalls(message);
    if (uses.length === 0) return { role: "user", content: [] };
    return wire.formatToolResults(await session.dispatchAll(uses), uses);
  };
}

/** The dispatch cases: turns of N calls (valid, invalid, with hooks, JSON text input) and one call with hooks. */
export function dispatchCases() {
  const registry = createToolRegistry({ custom: [noopTool()] });
  const plain = createAgentSession({ registry });
  const hooked = createAgentSession({
    registry,
    beforeToolCall: [() => undefined],
    afterToolCall: [() => undefined],
  });
  const cases = [];
  const checkTurn = (calls, variant) => (message) => checkResults(asChecked(message), calls, variant);
  for (const variant of ["valid", "invalid", "hooks", "json-text"]) {
    for (const n of CALL_COUNTS) {
      const inputVariant = variant === "invalid" ? "invalid" : "valid";
      let calls = turnCalls(n, inputVariant);
      if (variant === "json-text") calls = calls.map((call) => ({ ...call, input: JSON.stringify(call.input) }));
      const session = variant === "hooks" ? hooked : plain;
      cases.push({
        group: "turn",
        library: "toolwire",
        variant,
        n,
        run: turnOver(session, calls),
        check: checkTurn(calls, inputVariant),
      });
    }
  }
  const use = { id: "call_0", name: NOOP_NAME, input: validInput(0) };
  cases.push({
    group: "single",
    library: "toolwire",
    variant: "hooks",
    n: 1,
    run: () => hooked.dispatch(use),
    check: (block) => checkResults(asChecked({ content: [block] }), [use], "valid"),
  });
  cases.push({
    group: "single",
    library: "toolwire",
    variant: "plain",
    n: 1,
    run: () => plain.dispatch(use),
    check: (block) => checkResults(asChecked({ content: [block] }), [use], "valid"),
  });
  return cases;
}

/** A Messages API response body as the HTTP answer would give it: `content`, `stop_reason` and `usage`. */
function anthropicAnswer(content, stopReason) {
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

/**
 * The Anthropic model client with the network taken out: each turn builds the request body as
 * `createAnthropicModel` does (tools payload, transcript as Anthropic messages) and reads a prebuilt response
 * body as it does (`readAnthropicMessage`); only the SDK's HTTP round trip is replaced. It asks for `calls`
 * first, then, once the last transcript message holds their results, ends the run with text.
 */
export function anthropicWireModel(calls) {
  const options = { model: "scripted" };
  const name = "anthropic:scripted";
  const uses = calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input }));
  const callTurn = anthropicAnswer([{ type: "text", text: "Calling tools." }, ...uses], "tool_use");
  const endTurn = anthropicAnswer([{ type: "text", text: "Done." }], "end_turn");
  return {
    name,
    async complete(request) {
      do_not_optimize(anthropicRequestBody(options, request));
      const answered = request.messages.at(-1)?.role === "tool";
      const turn = readAnthropicMessage(answered ? endTurn : callTurn, name);
      if (turn.text !== "") request.onTextDelta?.(turn.text);
      return turn;
    },
  };
}

/** The tool results and stop reason of one run of the loop, as `checkResults` and the loop checks read them. */
function loopOutcome(done) {
  const results = (done?.transcript ?? []).flatMap((message) => (message.role === "tool" ? message.results : []));
  return {
    reason: done?.reason,
    turns: done?.turns,
    results: results.map((block) => ({ text: block.content[0]?.text, isError: block.is_error === true })),
  };
}

/** Checks one run: completed in two model turns, one result per call, each the tool's answer. */
export function checkLoopOutcome(outcome, calls) {
  if (outcome.reason !== "completed") return `the run ended with ${String(outcome.reason)}, expected completed`;
  if (outcome.turns !== 2) return `the run took ${String(outcome.turns)} model turns, expected 2`;
  return checkResults(outcome.results, calls, "valid");
}

/**
 * The loop case: one whole run of `runAgent` over the Anthropic wire format. The model asks for N calls of the
 * no-op tool; they are dispatched and their results sent back; the model ends the run. Every event is read.
 */
export function loopCases() {
  const registry = createToolRegistry({ custom: [noopTool()] });
  const session = createAgentSession({ registry });
  const calls = turnCalls(1, "valid");
  const model = anthropicWireModel(calls);
  return [
    {
      group: "loop",
      library: "toolwire",
      variant: "anthropic",
      n: 1,
      run: async () => {
        let done;
        for await (const event of runAgent({ session, model, prompt: "go" })) {
          if (event.type === "done") done = event;
        }
        return done;
      },
      check: (done) => checkLoopOutcome(loopOutcome(done), calls),
    },
  ];
}

/** The registry-size cases: refresh, plan, the tools payload of one turn, and refresh plus payload, per tool count. */
export function toolSetCases(toolCounts = TOOL_COUNTS) {
  const cases = [];
  for (const n of toolCounts) {
    const tools = buildToolSpecs(n).map((spec) => defineTool({ ...spec, execute: noop }));
    const registry = createToolRegistry({ custom: tools });
    const session = createAgentSession({ registry });
    const descriptors = tools.map((tool) => tool.descriptor);
    const sizeIs = (value) => (value.length === n ? undefined : `expected ${n} entries, got ${value.length}`);
    cases.push({
      group: "tools",
      library: "toolwire",
      variant: "refresh",
      n,
      run: () => registry.refresh(),
      check: () => sizeIs([...registry.tools.keys()]),
    });
    cases.push({
      group: "tools",
      library: "toolwire",
      variant: "plan",
      n,
      run: () => buildToolPlan({ descriptors }),
      check: (plan) => sizeIs(plan.visible),
    });
    cases.push({
      group: "tools",
      library: "toolwire",
      variant: "payload",
      n,
      run: () => wire.formatTools(session.activeTools.values()),
      check: sizeIs,
    });
    cases.push({
      group: "tools",
      library: "toolwire",
      variant: "refresh+payload",
      n,
      run: () => {
        registry.refresh();
        return wire.formatTools(session.activeTools.values());
      },
      check: sizeIs,
    });
  }
  return cases;
}

/** Every toolwire case of its own process. */
export function createCases(options = {}) {
  return [...floorCases(), ...dispatchCases(), ...loopCases(), ...toolSetCases(options.toolCounts)];
}

/** What this library's cases were built with, for the results file. */
export function describe() {
  return { library: "toolwire", version: "workspace build (dist/)", payloadVia: wire.via };
}

/** Facts checked once, not timed: is the tools payload rebuilt from the same schema objects every turn? */
export function facts() {
  const tools = buildToolSpecs(100).map((spec) => defineTool({ ...spec, execute: noop }));
  const registry = createToolRegistry({ custom: tools });
  const session = createAgentSession({ registry });
  const first = wire.formatTools(session.activeTools.values());
  registry.refresh();
  const second = wire.formatTools(session.activeTools.values());
  const schemaOf = (entry) => entry.input_schema ?? entry.inputSchema ?? entry.parameters ?? entry.function?.parameters;
  return {
    payloadVia: wire.via,
    schemaObjectsReusedAcrossTurns: first.every((entry, index) => schemaOf(entry) === schemaOf(second[index])),
    payloadBytesStableAcrossTurns: JSON.stringify(first) === JSON.stringify(second),
  };
}
