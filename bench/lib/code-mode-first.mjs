// The first program of a fresh process (bench/code-mode.bench.mjs): import toolwire and its code mode, make a session
// and run_code, run a trivial program; prints one JSON line with the milliseconds from before the import to the outcome.
// With an argument N, the program is dispatched N ms after run_code was made (a model's first turn takes that long,
// and the engine starts meanwhile), and `dispatchToOutcomeMs` is what the model's first program waits.
const modelTurnMs = Number(process.argv[2] ?? 0);
const start = performance.now();
const api = await import("../../dist/index.js");
const { createCodeMode } = await import("../../dist/code-mode/index.js");
const session = api.createAgentSession({ registry: api.createToolRegistry({ custom: [] }) });
const codeMode = createCodeMode(session);
session.registry.refresh({ custom: [codeMode.source] });
if (modelTurnMs > 0) await new Promise((resolve) => setTimeout(resolve, modelTurnMs));
const dispatched = performance.now();
const outcome = await session.dispatchDetailed({ id: "first", name: "run_code", input: { code: "return 1 + 1;" } });
const importToOutcomeMs = performance.now() - start;
const dispatchToOutcomeMs = performance.now() - dispatched;
if (outcome.errorCode !== undefined) throw new Error(`first program failed: ${outcome.errorCode}`);
process.stdout.write(`${JSON.stringify({ importToOutcomeMs, dispatchToOutcomeMs })}\n`);
