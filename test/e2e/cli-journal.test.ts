// toolwire run with a journal in the config: a run id, and the same id run again goes on from its journal.
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "./helpers/cli.js";

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({ journal: "file:runs" }),
    "notes.md": "the notes\n",
    "first.json": JSON.stringify({
      turns: [{ toolCalls: [{ id: "r1", name: "read", input: { path: "notes.md" } }] }, { text: "read them" }],
    }),
    "none.json": JSON.stringify({ turns: [] }),
  });
});
afterAll(() => project.remove());

describe("toolwire run with a journal", { timeout: 60_000 }, () => {
  it("journals the run under --run-id; the same id again ends at once, asking the model nothing", async () => {
    const first = await runCli(["run", "--run-id", "notes-1", "--model", "scripted:first.json", "read my notes"], {
      cwd: project.path,
    });
    expect(first.code, first.stderr).toBe(0);
    const lines = (await readFile(join(project.path, "runs", "notes-1.jsonl"), "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).kind)).toEqual([
      "run-started",
      "model-turn",
      "call-started",
      "call-ended",
      "model-turn",
      "run-ended",
    ]);
    // A model with no turns left: asking it anything would fail the run.
    const again = await runCli(
      ["run", "--json", "--run-id", "notes-1", "--model", "scripted:none.json", "read my notes"],
      {
        cwd: project.path,
      },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('"reason":"completed"');
  });

  it("prints a new run id when none is given", async () => {
    const run = await runCli(["run", "--model", "scripted:first.json", "read my notes"], { cwd: project.path });
    expect(run.code, run.stderr).toBe(0);
    const id = /run (run-\d+-[0-9a-f]{8}) \(toolwire run --run-id \1 resumes it\)/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    await access(join(project.path, "runs", `${id}.jsonl`));
  });

  it("refuses --run-id without a journal in the config", async () => {
    const bare = await tempWorkspace({ "toolwire.config.json": "{}" });
    try {
      const run = await runCli(["run", "--run-id", "x", "--model", "scripted:none.json", "go"], { cwd: bare.path });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--run-id resumes a journaled run: set "journal" in the config');
    } finally {
      await bare.remove();
    }
  });
});
