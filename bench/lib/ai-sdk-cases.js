// The Vercel AI SDK's cases, for either of its majors: generateText over its mock model (`ai/test`), one step, a
// zod-typed no-op tool; and turns with N tools. The peer modules give the package.
import { z } from "zod";
import { checkResults } from "./checks.js";
import { floorCases } from "./floor.js";
import { buildToolSpecs } from "./tool-sets.js";
import { CALL_COUNTS, NOOP_DESCRIPTION, NOOP_NAME, NOOP_OUTPUT, TOOL_COUNTS, turnCalls } from "./workload.js";

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/**
 * The AI SDK as a major names it: `generateText`, `jsonSchema` and `tool` from `ai`, and its mock language model
 * class from `ai/test` (`MockLanguageModelV3` in 6, `MockLanguageModelV4` in 7).
 * @typedef {{ generateText: Function, jsonSchema: Function, tool: Function, MockLanguageModel: new (options: object) => { doGenerateCalls: unknown[] } }} AiSdkPackage
 */

/** A mock model that always answers `result`; it forgets the calls it saw, so a long run holds no memory. */
function mockModel(ai, result, onCall) {
  const model = new ai.MockLanguageModel({
    doGenerate: async (options) => {
      model.doGenerateCalls.length = 0;
      onCall?.(options);
      return result;
    },
  });
  return model;
}

function modelResult(calls) {
  const content = [{ type: "text", text: "Calling tools." }];
  for (const call of calls) {
    content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) });
  }
  const finishReason = { unified: calls.length === 0 ? "stop" : "tool-calls", raw: undefined };
  return { content, finishReason, usage: USAGE, warnings: [] };
}

function collected(result) {
  return result.steps[0].content
    .filter((part) => part.type === "tool-result" || part.type === "tool-error")
    .map((part) =>
      part.type === "tool-result" ? { text: part.output, isError: false } : { text: String(part.error), isError: true },
    );
}

/**
 * Every AI SDK case, named `library`: turns of N calls (valid and invalid) and turns with N tools and no call.
 * @param {AiSdkPackage} ai
 */
export function aiSdkCases(ai, library, options = {}) {
  const noopTool = ai.tool({
    description: NOOP_DESCRIPTION,
    inputSchema: z.object({ id: z.number().int(), label: z.string() }).strict(),
    execute: async () => NOOP_OUTPUT,
  });
  const cases = [...floorCases()];
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      const model = mockModel(ai, modelResult(calls));
      cases.push({
        group: "turn",
        library,
        variant,
        n,
        run: () => ai.generateText({ model, prompt: "go", tools: { [NOOP_NAME]: noopTool } }),
        check: (result) => checkResults(collected(result), calls, variant),
      });
    }
  }
  for (const n of [0, ...(options.toolCounts ?? TOOL_COUNTS)]) {
    const tools = {};
    for (const spec of buildToolSpecs(n)) {
      tools[spec.name] = ai.tool({
        description: spec.description,
        inputSchema: ai.jsonSchema(spec.inputSchema),
        execute: async () => NOOP_OUTPUT,
      });
    }
    let seen = -1;
    const model = mockModel(ai, modelResult([]), (callOptions) => {
      seen = callOptions.tools?.length ?? 0;
    });
    cases.push({
      group: "tools",
      library,
      variant: "turn",
      n,
      run: () => ai.generateText({ model, prompt: "go", tools }),
      check: () => (seen === n ? undefined : `the model saw ${seen} tools, expected ${n}`),
    });
  }
  return cases;
}
