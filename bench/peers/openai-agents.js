// The OpenAI Agents SDK's side: Runner.run over a fake Model, one turn (stop_on_first_tool), zod-typed no-op tool.
import { Agent, Runner, setTracingDisabled, tool, Usage } from "@openai/agents-core";
import { z } from "zod";
import { checkResults } from "../lib/checks.js";
import { floorCases } from "../lib/floor.js";
import { packageVersion } from "../lib/package-version.js";
import { buildToolSpecs } from "../lib/tool-sets.js";
import { CALL_COUNTS, NOOP_DESCRIPTION, NOOP_NAME, NOOP_OUTPUT, TOOL_COUNTS, turnCalls } from "../lib/workload.js";

setTracingDisabled(true);

/** A fake model that always answers `output` (function calls, or a message when there are none). */
function fakeModel(calls, onRequest) {
  const output =
    calls.length === 0
      ? [
          {
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "Done." }],
          },
        ]
      : calls.map((call) => ({
          type: "function_call",
          callId: call.id,
          name: call.name,
          status: "completed",
          arguments: JSON.stringify(call.input),
        }));
  return {
    async getResponse(request) {
      onRequest?.(request);
      return { usage: new Usage(), output, responseId: "scripted" };
    },
    // biome-ignore lint/correctness/useYield: the benchmark never streams
    async *getStreamedResponse() {
      throw new Error("the scripted model does not stream");
    },
  };
}

const noopTool = tool({
  name: NOOP_NAME,
  description: NOOP_DESCRIPTION,
  parameters: z.object({ id: z.number().int(), label: z.string() }).strict(),
  execute: async () => NOOP_OUTPUT,
});

function collected(result) {
  return result.newItems
    .filter((item) => item.type === "tool_call_output_item")
    .map((item) => {
      const text = typeof item.output === "string" ? item.output : item.rawItem?.output?.text;
      return { text, isError: text !== NOOP_OUTPUT };
    });
}

/** Every OpenAI Agents case: turns of N calls (valid and invalid) and turns with N tools and no call. */
export function createCases(options = {}) {
  const cases = [...floorCases()];
  const runner = new Runner({ tracingDisabled: true });
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      const agent = new Agent({
        name: "bench",
        instructions: "Use the tools.",
        model: fakeModel(calls),
        tools: [noopTool],
        toolUseBehavior: "stop_on_first_tool",
      });
      cases.push({
        group: "turn",
        library: "openai-agents",
        variant,
        n,
        run: () => runner.run(agent, "go"),
        // Its default error text for a bad input is generic: it does not name the faulty field.
        check: (result) => checkResults(collected(result), calls, variant, { faultNamed: false }),
      });
    }
  }
  for (const n of [0, ...(options.toolCounts ?? TOOL_COUNTS)]) {
    const tools = buildToolSpecs(n).map((spec) =>
      tool({
        name: spec.name,
        description: spec.description,
        parameters: spec.inputSchema,
        strict: false,
        execute: async () => NOOP_OUTPUT,
      }),
    );
    let seen = -1;
    const agent = new Agent({
      name: "bench",
      instructions: "Use the tools.",
      model: fakeModel([], (request) => {
        seen = request.tools.length;
      }),
      tools,
    });
    cases.push({
      group: "tools",
      library: "openai-agents",
      variant: "turn",
      n,
      run: () => runner.run(agent, "go"),
      check: () => (seen === n ? undefined : `the model saw ${seen} tools, expected ${n}`),
    });
  }
  return cases;
}

/** What this library's cases were built with. */
export function describe() {
  return { library: "openai-agents", version: `@openai/agents-core@${packageVersion("@openai/agents-core")}` };
}
