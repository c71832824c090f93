// pi's side: runAgentLoop over a scripted stream, stopping after one turn, TypeBox-typed no-op tool; and a whole
// run of the loop (the calls' turn and the model's end turn).
import { runAgentLoop } from "@mariozechner/pi-agent-core";
import { createAssistantMessageEventStream, fauxAssistantMessage, fauxToolCall, Type } from "@mariozechner/pi-ai";
import { checkResults } from "../lib/checks.js";
import { floorCases } from "../lib/floor.js";
import { packageVersion } from "../lib/package-version.js";
import { buildToolSpecs } from "../lib/tool-sets.js";
import { CALL_COUNTS, NOOP_DESCRIPTION, NOOP_NAME, NOOP_OUTPUT, TOOL_COUNTS, turnCalls } from "../lib/workload.js";

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
const CONFIG = { model: MODEL, convertToLlm: (messages) => messages, shouldStopAfterTurn: () => true };
const PROMPT = { role: "user", content: "go", timestamp: 0 };
const OK_RESULT = { content: [{ type: "text", text: NOOP_OUTPUT }], details: undefined };

/** A stream function that answers with one finished message asking for `calls`. */
function scriptedStream(calls, onContext) {
  const content = [{ type: "text", text: "Calling tools." }];
  for (const call of calls) content.push(fauxToolCall(call.name, call.input, { id: call.id }));
  const message = fauxAssistantMessage(content, { stopReason: calls.length === 0 ? "stop" : "toolUse" });
  return (_model, context) => {
    onContext?.(context);
    const stream = createAssistantMessageEventStream();
    stream.push({ type: "done", reason: message.stopReason, message });
    return stream;
  };
}

const noopTool = {
  name: NOOP_NAME,
  label: NOOP_NAME,
  description: NOOP_DESCRIPTION,
  parameters: Type.Object({ id: Type.Integer(), label: Type.String() }, { additionalProperties: false }),
  execute: async () => OK_RESULT,
};

const ignore = () => {};

function turn(tools, streamFn) {
  return () => runAgentLoop([PROMPT], { systemPrompt: "", messages: [], tools }, CONFIG, ignore, undefined, streamFn);
}

/**
 * A stream function for a whole run: the message asking for `calls` first, then, once the last message of the
 * context is a tool result, a finished text message that ends the run.
 */
function scriptedRun(calls) {
  const content = [{ type: "text", text: "Calling tools." }];
  for (const call of calls) content.push(fauxToolCall(call.name, call.input, { id: call.id }));
  const callTurn = fauxAssistantMessage(content, { stopReason: "toolUse" });
  const endTurn = fauxAssistantMessage([{ type: "text", text: "Done." }], { stopReason: "stop" });
  return (_model, context) => {
    const message = context.messages.at(-1)?.role === "toolResult" ? endTurn : callTurn;
    const stream = createAssistantMessageEventStream();
    stream.push({ type: "done", reason: message.stopReason, message });
    return stream;
  };
}

const RUN_CONFIG = { model: MODEL, convertToLlm: (messages) => messages };

function collected(messages) {
  return messages
    .filter((message) => message.role === "toolResult")
    .map((message) => ({ text: message.content[0]?.text, isError: message.isError }));
}

/** Every pi case: turns of N calls (valid and invalid), a whole run with one call, and turns with N tools and no call. */
export function createCases(options = {}) {
  const cases = [...floorCases()];
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      cases.push({
        group: "turn",
        library: "pi",
        variant,
        n,
        run: turn([noopTool], scriptedStream(calls)),
        check: (messages) => checkResults(collected(messages), calls, variant),
      });
    }
  }
  const loopCalls = turnCalls(1, "valid");
  const loopStream = scriptedRun(loopCalls);
  cases.push({
    group: "loop",
    library: "pi",
    variant: "anthropic",
    n: 1,
    run: () =>
      runAgentLoop(
        [PROMPT],
        { systemPrompt: "", messages: [], tools: [noopTool] },
        RUN_CONFIG,
        ignore,
        undefined,
        loopStream,
      ),
    check: (messages) => {
      const turns = messages.filter((message) => message.role === "assistant").length;
      if (turns !== 2) return `the run took ${turns} model turns, expected 2`;
      if (messages.at(-1)?.stopReason !== "stop") return "the run did not end with the model's end turn";
      return checkResults(collected(messages), loopCalls, "valid");
    },
  });
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
      library: "pi",
      variant: "turn",
      n,
      run: turn(
        tools,
        scriptedStream([], (context) => {
          seen = context.tools?.length ?? 0;
        }),
      ),
      check: () => (seen === n ? undefined : `the model saw ${seen} tools, expected ${n}`),
    });
  }
  return cases;
}

/** What this library's cases were built with. */
export function describe() {
  return {
    library: "pi",
    version: `@mariozechner/pi-agent-core@${packageVersion("@mariozechner/pi-agent-core")}`,
  };
}
