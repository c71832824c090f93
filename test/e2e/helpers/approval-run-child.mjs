// One process of a run paused for approval. argv: <dist folder> <pause|resume> <work folder> [decision].
// pause: runs the agent until it waits for approval and writes the state to <work>/state.json.
// resume: reads that state, applies <decision> (approve | decline) to its one pending approval, runs to the end.
// The approval store is a folder of claim files (created exclusively), shared by every process of the run.
// `danger` appends its input to <work>/runs.log. Prints one JSON line: the events' types and the outcome.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { claimFileStore } from "./claim-file-store.mjs";

const [dist, mode, work, decision] = process.argv.slice(2);
const { createAgentSession, createScriptedModel, createToolRegistry, defineTool, resumeAgent, runAgent } = await import(
  pathToFileURL(`${dist}/index.js`).href
);

const store = claimFileStore(join(work, "claims"));
const danger = defineTool({
  name: "danger",
  description: "needs approval",
  inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  execute: ({ command }) => {
    appendFileSync(join(work, "runs.log"), `${process.pid} ${command}\n`);
    return `ran ${command}`;
  },
});
const session = createAgentSession({
  registry: createToolRegistry({ custom: [danger] }),
  approvals: { require: ["danger"], secret: process.env.RUN_SECRET, store },
});

const events = [];
let outcome = "ok";
try {
  if (mode === "pause") {
    const model = createScriptedModel([{ toolCalls: [{ id: "c1", name: "danger", input: { command: "deploy" } }] }]);
    for await (const event of runAgent({ session, model, prompt: "deploy it" })) {
      events.push(event.type);
      if (event.type === "done" && event.state) writeFileSync(join(work, "state.json"), JSON.stringify(event.state));
    }
  } else {
    const state = JSON.parse(readFileSync(join(work, "state.json"), "utf8"));
    const decisions = {
      [state.pending[0].approvalId]: decision === "approve" ? { approve: true } : { approve: false },
    };
    const model = createScriptedModel([{ text: "deployed", expect: { toolResults: [{ id: "c1" }] } }]);
    for await (const event of resumeAgent({ session, model, state, decisions })) {
      events.push(event.type === "done" ? `done:${event.reason}` : event.type);
    }
  }
} catch (error) {
  outcome = `${error.name}:${error.code}`;
}
process.stdout.write(`${JSON.stringify({ events, outcome })}\n`);
