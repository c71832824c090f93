// toolwire run --record, then --replay offline: the same run without the model or the recorded tools; edits caught.
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

const SCRIPT = {
  turns: [
    {
      text: "Reading a.txt and writing c.txt.",
      toolCalls: [
        { id: "c1", name: "read", input: { path: "a.txt" } },
        { id: "c2", name: "write", input: { path: "c.txt", content: "written\n" } },
      ],
    },
    { text: "Done: a.txt says hello." },
  ],
};

const removals: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const remove of removals.splice(0)) await remove();
});

/** A workspace where the scripted run was recorded to run.jsonl; the script and the file it wrote then removed. */
async function recorded() {
  const workspace = await tempWorkspace({ "a.txt": "hello from a\n", "turns.json": JSON.stringify(SCRIPT) });
  removals.push(() => workspace.remove());
  const run = (args: string[]) => runCli(["run", ...args], { cwd: workspace.path, env: cliEnv() });
  const recording = await run(["--model", "scripted:turns.json", "--record", "run.jsonl", "read a.txt"]);
  expect(recording.code, recording.stderr).toBe(0);
  // Offline and without the script: only the recording is left to answer.
  await rm(join(workspace.path, "turns.json"));
  await rm(join(workspace.path, "c.txt"));
  const file = join(workspace.path, "run.jsonl");
  const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
  /** Rewrites the recording's lines. */
  const edit = (change: (lines: string[]) => string[]) => writeFile(file, `${change([...lines]).join("\n")}\n`);
  return { workspace, run, lines, edit };
}

describe("toolwire run --record, then --replay", { timeout: 60_000 }, () => {
  it("replays the recorded run offline without running the recorded tools", async () => {
    const { workspace, run, lines } = await recorded();
    expect(lines.map((line) => JSON.parse(line).kind)).toEqual(["header", "model", "tool", "tool", "model"]);
    const { code, stdout, stderr } = await run(["--replay", "run.jsonl"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("model replay:run.jsonl");
    expect(stdout).toContain('call   read {"path":"a.txt"}');
    expect(stdout).toContain("■ completed after 2 turns");
    expect(existsSync(join(workspace.path, "c.txt"))).toBe(false);
  });

  it("runs a --live tool for real during the replay", async () => {
    const { workspace, run } = await recorded();
    const { code, stderr } = await run(["--replay", "run.jsonl", "--live", "write"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(await readFile(join(workspace.path, "c.txt"), "utf8")).toBe("written\n");
  });

  it("fails naming the call when a recorded tool input was changed", async () => {
    const { run, edit } = await recorded();
    await edit((lines) =>
      lines.map((line) =>
        line.includes('"kind":"tool"') ? line.replace('"input":{"path":"a.txt"}', '"input":{"path":"b.txt"}') : line,
      ),
    );
    const { code, stderr } = await run(["--replay", "run.jsonl"]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'Replay diverged at turn 1, call c1: the input to read differs: recorded {"path":"b.txt"}, got {"path":"a.txt"}',
    );
  });

  it("fails naming the call when a recorded call was removed", async () => {
    const { run, edit } = await recorded();
    await edit((lines) => lines.filter((line) => !line.includes('"kind":"tool","turn":1,"call":{"id":"c2"')));
    const { code, stderr } = await run(["--replay", "run.jsonl"]);
    expect(code).toBe(1);
    expect(stderr).toContain("Replay diverged at turn 1, call c2: a call to write that is not in the recording");
  });

  it("fails naming the call when the recording has an extra call", async () => {
    const { run, edit } = await recorded();
    await edit((lines) => {
      const at = lines.findIndex((line) => line.includes('"call":{"id":"c2"'));
      lines.splice(at + 1, 0, (lines[at] as string).replace('"id":"c2"', '"id":"c3"'));
      return lines;
    });
    const { code, stderr } = await run(["--replay", "run.jsonl"]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      "Replay diverged at turn 1, call c3: the recording has a call to write here that the run did not make",
    );
  });

  it("fails when the run completes before the recording does", async () => {
    const { run, edit } = await recorded();
    // The first turn's response edited to call nothing: the run completes after one turn.
    await edit((lines) =>
      lines.map((line) => {
        const record = JSON.parse(line);
        if (record.kind !== "model" || record.turn !== 1) return line;
        return JSON.stringify({ ...record, response: { ...record.response, toolCalls: [], stopReason: "end" } });
      }),
    );
    const { code, stderr } = await run(["--replay", "run.jsonl"]);
    expect(code).toBe(1);
    expect(stderr).toContain("Replay diverged: the run completed with 1 recorded model turn not asked for");
  });

  it("refuses --model with --replay, and a recording that is not one", async () => {
    const { workspace, run } = await recorded();
    const both = await run(["--replay", "run.jsonl", "--model", "scripted:x.json"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--replay answers with the recorded model: leave out --model");
    await writeFile(join(workspace.path, "bad.jsonl"), "not json\n");
    const bad = await run(["--replay", "bad.jsonl"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("bad.jsonl, line 1: not JSON");
  });
});
