// The Vercel AI SDK's side: generateText over its mock model (ai/test), one step, zod-typed no-op tool.
import { generateText, jsonSchema, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { checkResults } from "../lib/checks.js";
import { floorCases } from "../lib/floor.js";
import { packageVersion } from "../lib/package-version.js";
import { buildToolSpecs } from "../lib/tool-sets.js";
import { CALL_COUNTS, NOOP_DESCRIPTION, NOOP_NAME, NOOP_OUTPUT, TOOL_COUNTS, turnCalls } from "../lib/workload.js";

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A mock model that always answers `result`; it forgets the calls it saw, so a long run holds no memory. */
function mockModel(result, onCall) {
  const model = new MockLanguageModelV3({
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

const noopTool = tool({
  description: NOOP_DESCRIPTION,
  inputSchema: z.object({ id: z.number().int(), label: z.string() }).strict(),
  execute: async () => NOOP_OUTPUT,
});

function collected(result) {
  return result.steps[0].content
    .filter((part) => part.type === "tool-result" || part.type === "tool-error")
    .map((part) =>
      part.type === "tool-result" ? { text: part.output, isError: false } : { text: String(part.error), isError: true },
    );
}

/** Every AI SDK case: turns of N calls (valid and invalid) and turns with N tools and no call. */
export function createCases(options = {}) {
  const cases = [...floorCases()];
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      const model = mockModel(modelResult(calls));
      cases.push({
        group: "turn",
        library: "ai-sdk",
        variant,
        n,
        run: () => generateText({ model, prompt: "go", tools: { [NOOP_NAME]: noopTool } }),
        check: (result) => checkResults(collected(result), calls, variant),
      });
    }
  }
  for (const n of [0, ...(options.toolCounts ?? TOOL_COUNTS)]) {
    const tools = {};
    for (const spec of buildToolSpecs(n)) {
      tools[spec.name] = tool({
        description: spec.description,
        inputSchema: jsonSchema(spec.inputSchema),
        execute: async () => NOOP_OUTPUT,
      });
    }
    let seen = -1;
    const model = mockModel(modelResult([]), (callOptions) => {
      seen = callOptions.tools?.length ?? 0;
    });
    cases.push({
      group: "tools",
      library: "ai-sdk",
      variant: "turn",
      n,
      run: () => generateText({ model, prompt: "go", tools }),
      check: () => (seen === n ? undefined : `the model saw ${seen} tools, expected ${n}`),
    });
  }
  return cases;
}

/** What this library's cases were built with. */
export function describe() {
  return { library: "ai-sdk", version: `ai@${packageVersion("ai")}` };
}
