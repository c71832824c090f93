// toolwire's side of the benchmark: turns of N calls through a session, one call with hooks, registries of N tools
// (its whole run of the agent loop is in bench/peers/loop.js).

import * as toolwire from "../../dist/index.js";
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

const { buildToolPlan, createAgentSession, createToolRegistry, defineTool } = toolwire;

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
  return [...floorCases(), ...dispatchCases(), ...toolSetCases(options.toolCounts)];
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
