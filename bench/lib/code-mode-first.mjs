// The first program of a fresh process (bench/code-mode.bench.mjs): import toolwire and its code mode, make a session
// and run_code, run a trivial program; prints one JSON line with the milliseconds from before the import to the outcome.
const start = performance.now();
const api = await import("../../dist/index.js");
const { createCodeMode } = await import("../../dist/code-mode/index.js");
const session = api.createAgentSession({ registry: api.createToolRegistry({ custom: [] }) });
const codeMode = createCodeMode(session);
session.registry.refresh({ custom: [codeMode.source] });
const outcome = await session.dispatchDetailed({ id: "first", name: "run_code", input: { code: "return 1 + 1;" } });
const importToOutcomeMs = performance.now() - start;
if (outcome.errorCode !== undefined) throw new Error(`first program failed: ${outcome.errorCode}`);
process.stdout.write(`${JSON.stringify({ importToOutcomeMs })}\n`);
