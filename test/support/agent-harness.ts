// A real session over a real file tool in a temp folder, and a way to run the loop to its end, for tests.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import type { AgentEvent } from "../../src/loop/types.js";
import type { TranscriptMessage } from "../../src/providers/clients/types.js";

/** A temp folder with `note.txt`, a session whose `read_note` tool reads files in it, and a cleanup. */
export async function createNoteWorkspace(extraTools: AgentTool[] = []) {
  const dir = await mkdtemp(join(tmpdir(), "toolwire-loop-"));
  await writeFile(join(dir, "note.txt"), "ship v1 on Friday\n");
  const readNote = defineTool({
    name: "read_note",
    description: "Read a note file from the workspace.",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: "File name inside the workspace" } },
      required: ["path"],
      additionalProperties: false,
    },
    execute: async ({ path }) => readFile(join(dir, String(path).replaceAll("/", "_")), "utf8"),
  });
  const session = createAgentSession({
    registry: createToolRegistry({ custom: [readNote, ...extraTools] }),
    systemPrompt: "You are a test agent.",
  });
  return { dir, session, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs a loop generator to its end: every event, and the transcript it returned. */
export async function drain(run: AsyncGenerator<AgentEvent, TranscriptMessage[], undefined>) {
  const events: AgentEvent[] = [];
  let step = await run.next();
  while (!step.done) {
    events.push(step.value);
    step = await run.next();
  }
  return { events, transcript: step.value, done: events.at(-1) as Extract<AgentEvent, { type: "done" }> };
}

/** The events' types in order, `tool_call:name` and `tool_result:id` spelled out. */
export function eventTrace(events: readonly AgentEvent[]): string[] {
  return events.map((event) => {
    if (event.type === "tool_call") return `tool_call:${event.call.name}`;
    if (event.type === "tool_result") return `tool_result:${event.result.is_error ? "error" : "ok"}`;
    if (event.type === "done") return `done:${event.reason}`;
    return event.type;
  });
}
