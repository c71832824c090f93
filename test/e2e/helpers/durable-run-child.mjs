// One process of a durable run. argv: <dist folder> <start|resume> <work folder> <journal module> <journal kind>.
// start: the model sends `send` (turn 1), then `unsafe_wait` and `safe_wait` together (turn 2), then a last answer;
// the waits wait until the process is killed. resume: the same run id, a model with only the last answer, and waits
// that end at once (after WAIT_MS, default 0). `send` and the waits append "<pid> <tool>" to <work>/runs.log; each wait writes
// <work>/<tool>.started when it begins. Prints one JSON line: each tool result's call id and error code, and why
// the run stopped. The journal: `file` (a folder in <work>) or `postgres` (the connection string in JOURNAL_URL).
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, mode, work, journalModule, kind] = process.argv.slice(2);
const { createAgentSession, createScriptedModel, createToolRegistry, defineTool, runAgent } = await import(
  pathToFileURL(`${dist}/index.js`).href
);
const journals = await import(pathToFileURL(journalModule).href);
const journal =
  kind === "postgres"
    ? journals.createPostgresJournal({ connectionString: process.env.JOURNAL_URL })
    : journals.createFileJournal(join(work, "journal"));

const logRun = (name) => appendFileSync(join(work, "runs.log"), `${process.pid} ${name}\n`);
const send = defineTool({
  name: "send",
  description: "Sends a message (a side effect)",
  inputSchema: { type: "object" },
  execute: () => {
    logRun("send");
    return "sent";
  },
});
const waiting = (name, idempotent) =>
  defineTool({
    name,
    description: `${name}: waits`,
    inputSchema: { type: "object" },
    idempotent,
    timeoutMs: Number.POSITIVE_INFINITY,
    execute: async (_input, context) => {
      logRun(name);
      writeFileSync(join(work, `${name}.started`), context.idempotencyKey ?? "");
      if (mode === "start") await new Promise(() => {}); // until the process is killed
      // Resumed: WAIT_MS holds the run a while, so that a second resumer meets the lease.
      await new Promise((resolve) => setTimeout(resolve, Number(process.env.WAIT_MS ?? 0)));
      return `${name} done`;
    },
  });
const session = createAgentSession({
  registry: createToolRegistry({ custom: [send, waiting("unsafe_wait", false), waiting("safe_wait", true)] }),
});
const turns =
  mode === "start"
    ? [
        { toolCalls: [{ id: "s1", name: "send", input: {} }] },
        {
          toolCalls: [
            { id: "u1", name: "unsafe_wait", input: {} },
            { id: "w1", name: "safe_wait", input: {} },
          ],
        },
        { text: "done" },
      ]
    : [{ text: "done after the restart" }];
const results = [];
let reason;
for await (const event of runAgent({
  session,
  model: createScriptedModel(turns),
  prompt: "send it, then wait",
  journal,
  runId: "run-1",
})) {
  if (event.type === "tool_result") results.push([event.call.id, event.errorCode ?? "ok"]);
  if (event.type === "done") reason = event.reason;
}
await journal.close?.();
process.stdout.write(`${JSON.stringify({ results, reason })}\n`);
