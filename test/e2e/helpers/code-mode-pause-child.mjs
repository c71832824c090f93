// One process of a code-mode run paused for approval. argv: <dist folder> <pause|resume> <work folder> [in] [out].
// pause: the model sends one program; the run pauses at its first gated call and the state goes to <work>/<out>.
// resume: reads <work>/<in>, approves its one pending approval, runs on; a new pause writes <work>/<out>.
// The approval store is a folder of claim files (created exclusively), shared by every process of the run.
// `note` and `danger` (needs approval) append "<pid> <tool> <n>" to <work>/runs.log.
// Prints one JSON line: the events' types, run_code's result text (if it ended) and the outcome.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { claimFileStore } from "./claim-file-store.mjs";

const [dist, mode, work, input, output] = process.argv.slice(2);
const { createAgentSession, createScriptedModel, createToolRegistry, defineTool, resumeAgent, runAgent } = await import(
  pathToFileURL(`${dist}/index.js`).href
);
const { createCodeMode } = await import(pathToFileURL(`${dist}/code-mode/index.js`).href);

const PROGRAM = `
  const a = await tools.note({ n: 1 });
  const t = Date.now(), r = Math.random();
  const b = await tools.danger({ n: 2 });
  const c = await tools.note({ n: 3 });
  const d = await tools.danger({ n: 4 });
  return { a, b, c, d, t, r };
`;

const store = claimFileStore(join(work, "claims"));
const counted = (name) =>
  defineTool({
    name,
    description: `${name}: records its input`,
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    execute: ({ n }) => {
      appendFileSync(join(work, "runs.log"), `${process.pid} ${name} ${n}\n`);
      return `${name} ${n}`;
    },
  });
const tools = [counted("note"), counted("danger")];
const session = createAgentSession({
  registry: createToolRegistry({ custom: tools }),
  approvals: { require: ["danger"], secret: process.env.RUN_SECRET, store },
});
const codeMode = createCodeMode(session);
session.registry.refresh({ custom: [...tools, codeMode.source] });

const events = [];
let result;
let outcome = "ok";
const take = (event) => {
  events.push(event.type === "done" ? `done:${event.reason}` : event.type);
  if (event.type === "tool_result" && event.call.name === "run_code") result = event.result.content[0]?.text;
  if (event.type === "done" && event.state) writeFileSync(join(work, output), JSON.stringify(event.state));
};
try {
  if (mode === "pause") {
    const call = { id: "r1", name: "run_code", input: { code: PROGRAM } };
    const model = createScriptedModel([{ toolCalls: [call] }]);
    for await (const event of runAgent({ session, model, prompt: "go" })) take(event);
  } else {
    const state = JSON.parse(readFileSync(join(work, input), "utf8"));
    const decisions = { [state.pending[0].approvalId]: { approve: true } };
    const model = createScriptedModel([{ text: "finished" }]);
    for await (const event of resumeAgent({ session, model, state, decisions })) take(event);
  }
} catch (error) {
  outcome = `${error.name}:${error.code}`;
}
process.stdout.write(`${JSON.stringify({ events, result, outcome })}\n`);
