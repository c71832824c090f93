// Example plugin: notes kept as JSON lines in a file under the workspace. Loaded by path from toolwire.config.json.
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";

export default {
  id: "notes",
  description: "Add and list short notes in a file of the workspace.",
  tools: (ctx) => {
    const file = resolve(ctx.workspaceRoot, String(ctx.options.file ?? ".toolwire/notes.jsonl"));
    if (!file.startsWith(ctx.workspaceRoot + sep)) throw new Error(`notes file ${file} is outside the workspace`);
    const readNotes = async () => {
      const text = await readFile(file, "utf8").catch((error) =>
        error.code === "ENOENT" ? "" : Promise.reject(error),
      );
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line));
    };
    return [
      ctx.defineTool({
        name: "notes_add",
        description: "Add a note. Returns how many notes there are now.",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string", minLength: 1, description: "The note" } },
          required: ["text"],
          additionalProperties: false,
        },
        executionMode: "sequential",
        execute: async ({ text }) => {
          await mkdir(dirname(file), { recursive: true });
          await appendFile(file, `${JSON.stringify({ text, at: new Date().toISOString() })}\n`);
          return `Saved. ${(await readNotes()).length} note(s).`;
        },
      }),
      ctx.defineTool({
        name: "notes_list",
        description: "List the notes, oldest first.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true },
        execute: async () => {
          const notes = await readNotes();
          return notes.length === 0 ? "No notes yet." : notes.map((n, i) => `${i + 1}. ${n.text}`).join("\n");
        },
      }),
      ctx.defineTool({
        name: "notes_sync",
        description: "Sync the notes with the team's notes service (needs NOTES_TOKEN).",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        availability: { kind: "env", name: "NOTES_TOKEN" },
        execute: async () => {
          throw new Error("notes_sync: no notes service is configured in this example");
        },
      }),
    ];
  },
  // Keeps notes short: a before hook sees every call of the session, in plugin order.
  beforeToolCall: (event) =>
    event.toolName === "notes_add" && typeof event.input.text === "string" && event.input.text.length > 500
      ? { block: true, reason: "a note may have at most 500 characters" }
      : undefined,
};
