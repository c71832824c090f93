// The AI SDK's first code-mode program of a fresh process (bench/code-mode.bench.mjs, on Node 22): import the package
// and `ai`, define a tool, run a trivial program; prints the milliseconds from before the import to the outcome.
const start = performance.now();
const { experimental_runCodeMode: runCodeMode } = await import("@ai-sdk/code-mode");
const { jsonSchema, tool } = await import("ai");
const noop = tool({
  description: "Does nothing.",
  inputSchema: jsonSchema({ type: "object" }),
  execute: async () => "ok",
});
const value = await runCodeMode({ js: "return 1 + 1;", tools: { noop } });
const importToOutcomeMs = performance.now() - start;
if (value !== 2) throw new Error(`first program gave ${JSON.stringify(value)}`);
process.stdout.write(`${JSON.stringify({ importToOutcomeMs })}\n`);
