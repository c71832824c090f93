// LangChain's side: ToolNode over a scripted AIMessage, zod-typed no-op tool; per-turn tool conversion for tool sets.
import { AIMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { checkResults } from "../lib/checks.js";
import { floorCases } from "../lib/floor.js";
import { packageVersion } from "../lib/package-version.js";
import { buildToolSpecs } from "../lib/tool-sets.js";
import { CALL_COUNTS, NOOP_DESCRIPTION, NOOP_NAME, NOOP_OUTPUT, TOOL_COUNTS, turnCalls } from "../lib/workload.js";

const noopTool = tool(async () => NOOP_OUTPUT, {
  name: NOOP_NAME,
  description: NOOP_DESCRIPTION,
  schema: z.object({ id: z.number().int(), label: z.string() }).strict(),
});

function scriptedMessage(calls) {
  return new AIMessage({
    content: "Calling tools.",
    tool_calls: calls.map((call) => ({ id: call.id, name: call.name, args: call.input, type: "tool_call" })),
  });
}

function collected(output) {
  return output.messages.map((message) => ({ text: message.content, isError: message.status === "error" }));
}

/**
 * Every LangChain case: turns of N calls through ToolNode (valid and invalid) and, per tool set, the
 * conversion of every tool to a provider's tool format (`convertToOpenAITool`), which an OpenAI-style
 * chat model's `bindTools` applies, and which langchain's `createAgent` runs on every model call.
 */
export function createCases(options = {}) {
  const cases = [...floorCases()];
  const node = new ToolNode([noopTool]);
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      const message = scriptedMessage(calls);
      const model = async () => message;
      cases.push({
        group: "turn",
        library: "langchain",
        variant,
        n,
        run: async () => node.invoke({ messages: [await model()] }),
        check: (output) => checkResults(collected(output), calls, variant),
      });
    }
  }
  for (const n of [0, ...(options.toolCounts ?? TOOL_COUNTS)]) {
    const tools = buildToolSpecs(n).map((spec) =>
      tool(async () => NOOP_OUTPUT, { name: spec.name, description: spec.description, schema: spec.inputSchema }),
    );
    cases.push({
      group: "tools",
      library: "langchain",
      variant: "turn",
      n,
      run: () => tools.map((each) => convertToOpenAITool(each)),
      check: (payload) => (payload.length === n ? undefined : `expected ${n} tools, got ${payload.length}`),
    });
  }
  return cases;
}

/** What this library's cases were built with. */
export function describe() {
  return {
    library: "langchain",
    version: `@langchain/core@${packageVersion("@langchain/core")}, @langchain/langgraph@${packageVersion("@langchain/langgraph")}`,
  };
}
