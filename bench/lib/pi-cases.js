// pi's cases, for either of its releases: runAgentLoop over a scripted stream, stopping after one turn, a no-op tool;
// and a whole run of the loop (the calls' turn and the model's end turn). The peer modules give the packages.
import { checkResults } from "./checks.js";
import { floorCases } from "./floor.js";
import { buildToolSpecs } from "./tool-sets.js";
import { CALL_COUNTS, NOOP_DESCRIPTION, NOOP_NAME, NOOP_OUTPUT, TOOL_COUNTS, turnCalls } from "./workload.js";

const MODEL = {
  id: "scripted",
  name: "scripted",
  api: "scripted",
  provider: "scripted",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1_000_000,
  maxTokens: 10_000,
};
const RUN_CONFIG = { model: MODEL, convertToLlm: (messages) => messages };
const PROMPT = { role: "user", content: "go", timestamp: 0 };
const OK_RESULT = { content: [{ type: "text", text: NOOP_OUTPUT }], details: undefined };
const ignore = () => {};

/**
 * pi's packages as a release names them: `runAgentLoop` from its agent core; `createAssistantMessageEventStream`,
 * `fauxAssistantMessage` and `fauxToolCall` from its AI package; `parameters`, the no-op tool's schema as that
 * release's users write it; `stopAfterTurn`, the loop options that end a run after its first turn; `toolsSeen`, how
 * many tools a model request's context offers the model.
 * @typedef {{ runAgentLoop: Function, createAssistantMessageEventStream: Function, fauxAssistantMessage: Function, fauxToolCall: Function, parameters: unknown, stopAfterTurn: object, toolsSeen: (context: unknown) => number }} PiPackages
 */

/** The collected tool results of a run's messages, as `checkResults` reads them. */
function collected(messages) {
  return messages
    .filter((message) => message.role === "toolResult")
    .map((message) => ({ text: message.content[0]?.text, isError: message.isError }));
}

/**
 * The whole run of pi's loop the benchmark times: the model asks for `calls`, they run, and once the last message
 * of the context is a tool result the model ends the run with text. Resolves to the run's messages.
 * @param {PiPackages} pi
 */
export function piLoopRun(pi, calls) {
  const content = [{ type: "text", text: "Calling tools." }];
  for (const call of calls) content.push(pi.fauxToolCall(call.name, call.input, { id: call.id }));
  const callTurn = pi.fauxAssistantMessage(content, { stopReason: "toolUse" });
  const endTurn = pi.fauxAssistantMessage([{ type: "text", text: "Done." }], { stopReason: "stop" });
  const stream = (_model, context) => {
    const message = context.messages.at(-1)?.role === "toolResult" ? endTurn : callTurn;
    const events = pi.createAssistantMessageEventStream();
    events.push({ type: "done", reason: message.stopReason, message });
    return events;
  };
  const tool = noopTool(pi);
  return () =>
    pi.runAgentLoop([PROMPT], { systemPrompt: "", messages: [], tools: [tool] }, RUN_CONFIG, ignore, undefined, stream);
}

/** Checks a whole run of pi's loop: two model turns, the last one the model's end turn, the tool's answer. */
export function checkPiRun(messages, calls) {
  const turns = messages.filter((message) => message.role === "assistant").length;
  if (turns !== 2) return `the run took ${turns} model turns, expected 2`;
  if (messages.at(-1)?.stopReason !== "stop") return "the run did not end with the model's end turn";
  return checkResults(collected(messages), calls, "valid");
}

function noopTool(pi) {
  return {
    name: NOOP_NAME,
    label: NOOP_NAME,
    description: NOOP_DESCRIPTION,
    parameters: pi.parameters,
    execute: async () => OK_RESULT,
  };
}

/** A stream function that answers with one finished message asking for `calls`. */
function scriptedStream(pi, calls, onContext) {
  const content = [{ type: "text", text: "Calling tools." }];
  for (const call of calls) content.push(pi.fauxToolCall(call.name, call.input, { id: call.id }));
  const message = pi.fauxAssistantMessage(content, { stopReason: calls.length === 0 ? "stop" : "toolUse" });
  return (_model, context) => {
    onContext?.(context);
    const stream = pi.createAssistantMessageEventStream();
    stream.push({ type: "done", reason: message.stopReason, message });
    return stream;
  };
}

/**
 * Every pi case, named `library`: turns of N calls (valid and invalid) and turns with N tools and no call (its whole
 * run of the loop is in bench/peers/loop.js).
 * @param {PiPackages} pi
 */
export function piCases(pi, library, options = {}) {
  const config = { ...RUN_CONFIG, ...pi.stopAfterTurn };
  const turn = (tools, streamFn) => () =>
    pi.runAgentLoop([PROMPT], { systemPrompt: "", messages: [], tools }, config, ignore, undefined, streamFn);
  const cases = [...floorCases()];
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      cases.push({
        group: "turn",
        library,
        variant,
        n,
        run: turn([noopTool(pi)], scriptedStream(pi, calls)),
        check: (messages) => checkResults(collected(messages), calls, variant),
      });
    }
  }
  for (const n of [0, ...(options.toolCounts ?? TOOL_COUNTS)]) {
    const tools = buildToolSpecs(n).map((spec) => ({
      name: spec.name,
      label: spec.name,
      description: spec.description,
      parameters: spec.inputSchema,
      execute: async () => OK_RESULT,
    }));
    let seen = -1;
    cases.push({
      group: "tools",
      library,
      variant: "turn",
      n,
      run: turn(
        tools,
        scriptedStream(pi, [], (context) => {
          seen = pi.toolsSeen(context);
        }),
      ),
      check: () => (seen === n ? undefined : `the model saw ${seen} tools, expected ${n}`),
    });
  }
  return cases;
}
