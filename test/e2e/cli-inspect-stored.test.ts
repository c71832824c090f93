// `toolwire inspect --journal ... --run-id ...` and `--recording ...` as a user runs them: a run written by a real
// `toolwire run`, shown on the page read-only, and a clear error with no page for what cannot be shown.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InspectorSnapshot } from "../../src/inspector/types.js";
import { createFileJournal } from "../../src/journal/create-file-journal.js";
import { createPostgresJournal } from "../../src/journal/create-postgres-journal.js";
import type { JournalEntry } from "../../src/journal/run-journal.js";
import { POSTGRES_RUNS, type PostgresServer, startPostgres } from "../support/postgres.js";
import { builtInspectorPage } from "./helpers/build.js";
import { cliEnv, type RunningCli, runCli, startCli, tempWorkspace } from "./helpers/cli.js";
import { snapshotOf } from "./helpers/inspector-snapshot.js";

const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:(\d+)\/[A-Za-z0-9_-]+\/)$/m;

builtInspectorPage();

let project: { path: string; remove(): Promise<void> };
let cli: RunningCli | undefined;
beforeAll(async () => {
  project = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({ journal: "file:runs" }),
    "notes.md": "the notes\n",
    "turns.json": JSON.stringify({
      turns: [
        {
          text: "Reading.",
          toolCalls: [
            { id: "r1", name: "read", input: { path: "notes.md" } },
            { id: "r2", name: "read", input: { path: "gone.md" } },
          ],
          usage: { inputTokens: 40, outputTokens: 8 },
        },
        { text: "Read them.", usage: { inputTokens: 60, outputTokens: 4 } },
      ],
    }),
  });
}, 60_000);
afterAll(() => project.remove());
afterEach(async () => {
  await cli?.stop("SIGKILL");
  cli = undefined;
});

/** Starts `toolwire inspect` with `args` and reads its page's snapshot. */
async function inspect(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ snapshot: InspectorSnapshot; url: string; port: string }> {
  cli = startCli(["inspect", ...args], { cwd: project.path, env: cliEnv(env) });
  const [, url = "", port = ""] = await cli.waitForStderr(URL_LINE);
  await cli.waitForStderr(/inspector: the page shows .*; Ctrl-C ends it/);
  return { snapshot: await snapshotOf(url), url, port };
}

describe("toolwire inspect a stored run", { timeout: 60_000 }, () => {
  it("shows a run from its journal, read-only, and a journal cut off in a call as stopped", async () => {
    const run = await runCli(["run", "--run-id", "notes-1", "--model", "scripted:turns.json", "read my notes"], {
      cwd: project.path,
    });
    expect(run.code, run.stderr).toBe(0);
    // A process holds the run (as a live run would): reading it takes nothing from that process.
    const lease = await createFileJournal(join(project.path, "runs")).acquire("notes-1");
    expect(lease).toBeDefined();
    const lock = await readFile(join(project.path, "runs", "notes-1.lock"), "utf8");
    const { snapshot, url, port } = await inspect(["--journal", "file:runs", "--run-id", "notes-1"]);
    expect(snapshot.canCall).toBe(false);
    expect(snapshot.sessions.map((session) => [session.label, session.stored, session.run?.status])).toEqual([
      ["run notes-1", true, "completed"],
    ]);
    expect(snapshot.sessions[0]?.run).toMatchObject({ turns: 2, inputTokens: 100, outputTokens: 12 });
    expect(snapshot.turns.map((turn) => [turn.turn, turn.text, turn.toolCalls])).toEqual([
      [1, "Reading.", 2],
      [2, "Read them.", 0],
    ]);
    expect(snapshot.calls.map((call) => [call.toolCallId, call.turn, call.status, call.errorCode])).toEqual([
      ["r1", 1, "ok", undefined],
      ["r2", 1, "error", "execution-failed"],
    ]);
    const detail = (await (await fetch(`${url}calls/${snapshot.calls[0]?.key}`)).json()) as {
      input: { text: string };
      result: { content: { text: string } };
    };
    expect(JSON.parse(detail.input.text)).toEqual({ path: "notes.md" });
    expect(detail.result.content.text).toContain("the notes");
    const byHand = await fetch(`${url}calls`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ sessionId: snapshot.sessions[0]?.id, name: "read", input: { path: "notes.md" } }),
    });
    expect(byHand.status).toBe(404);
    expect(await cli?.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    expect(await readFile(join(project.path, "runs", "notes-1.lock"), "utf8")).toBe(lock);
    await lease?.release();

    // The same run as a process that died in the first call would have left it.
    const lines = (await readFile(join(project.path, "runs", "notes-1.jsonl"), "utf8")).split("\n");
    await writeFile(join(project.path, "runs", "cut-1.jsonl"), `${lines.slice(0, 3).join("\n")}\n`);
    const cut = await inspect(["--journal", "file:runs", "--run-id", "cut-1"]);
    expect(cut.snapshot.sessions[0]?.run?.status).toBe("stopped");
    expect(cut.snapshot.calls.map((call) => [call.toolCallId, call.status])).toEqual([
      ["r1", "interrupted"],
      ["r2", "interrupted"],
    ]);
    expect(await cli?.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });

  it("shows a run from a recording, with the tools each turn offered, and reads no config", async () => {
    const recorded = await runCli(["run", "--model", "scripted:turns.json", "--record", "run.jsonl", "read my notes"], {
      cwd: project.path,
    });
    expect(recorded.code, recorded.stderr).toBe(0);
    const elsewhere = await tempWorkspace({
      "toolwire.config.json": "{ not json",
      "run.jsonl": await readFile(join(project.path, "run.jsonl"), "utf8"),
    });
    try {
      cli = startCli(["inspect", "--recording", "run.jsonl"], { cwd: elsewhere.path, env: cliEnv() });
      const [, url = ""] = await cli.waitForStderr(URL_LINE);
      await cli.waitForStderr(/the page shows recording run\.jsonl \(completed\)/);
      const snapshot = await snapshotOf(url);
      expect(snapshot.sessions.map((session) => [session.label, session.stored])).toEqual([
        ["recording run.jsonl", true],
      ]);
      expect(snapshot.turns.map((turn) => [turn.turn, turn.text, turn.inputTokens])).toEqual([
        [1, "Reading.", 40],
        [2, "Read them.", 60],
      ]);
      expect(snapshot.turns[0]?.offered).toEqual(expect.arrayContaining(["read", "bash"]));
      expect(snapshot.calls.map((call) => [call.toolCallId, call.status, call.errorCode])).toEqual([
        ["r1", "ok", undefined],
        ["r2", "error", "execution-failed"],
      ]);
      expect(await cli.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    } finally {
      await elsewhere.remove();
    }
  });

  it("fails with a clear message and no page for a missing file, an unknown run id and a corrupt store", async () => {
    await writeFile(join(project.path, "runs", "torn-1.jsonl"), '{"kind":"run-started"\n{"kind":"run-ended"}\n');
    await writeFile(join(project.path, "bad.jsonl"), '{"kind":"header","format":1}\nnot json\n');
    const cases: [string[], number, RegExp][] = [
      [["--recording", "missing.jsonl"], 1, /^toolwire: Cannot read the recording missing\.jsonl: .*ENOENT/m],
      [["--recording", "bad.jsonl"], 1, /^toolwire: bad\.jsonl, line 2: not JSON/m],
      [["--journal", "file:runs", "--run-id", "nobody"], 1, /^toolwire: The journal file:runs has no run nobody/m],
      [
        ["--journal", "file:runs", "--run-id", "torn-1"],
        1,
        /^toolwire: The journal of run torn-1 .* corrupt at line 1/m,
      ],
      [["--journal", "file:runs", "--run-id", "../etc"], 1, /^toolwire: Run id "\.\.\/etc" is not valid/m],
      [["--journal", "file:runs"], 2, /--journal and --run-id go together/],
      [["--journal", "runs", "--run-id", "x"], 2, /--journal needs file:PATH or postgres:env:NAME, got runs/],
      [["--recording", "run.jsonl", "--run-id", "x"], 2, /--recording and --journal \(--run-id\) do not go together/],
    ];
    for (const [args, code, message] of cases) {
      const failed = await runCli(["inspect", ...args], { cwd: project.path });
      expect([failed.code, failed.stderr], args.join(" ")).toEqual([code, expect.stringMatching(message)]);
      expect(failed.stderr, args.join(" ")).not.toMatch(/inspector: http|\n\s+at /);
    }
  });
});

if (!POSTGRES_RUNS)
  console.warn("skipping toolwire inspect on a PostgreSQL journal: initdb and postgres are not installed");

describe.skipIf(!POSTGRES_RUNS)("toolwire inspect a run of a PostgreSQL journal", { timeout: 90_000 }, () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it("shows the run while another process holds it, and leaves that process its lease", async () => {
    const ran = await runCli(["run", "--run-id", "for-pg", "--model", "scripted:turns.json", "read my notes"], {
      cwd: project.path,
    });
    expect(ran.code, ran.stderr).toBe(0);
    const entries = (await readFile(join(project.path, "runs", "for-pg.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as JournalEntry);
    const holder = createPostgresJournal({ connectionString: server.connectionString });
    const other = createPostgresJournal({ connectionString: server.connectionString });
    try {
      await holder.append("pg-1", entries.slice(0, 3)); // cut off in its first call, as a live run would be
      const lease = await holder.acquire("pg-1");
      expect(lease).toBeDefined();
      const { snapshot } = await inspect(["--journal", "postgres:env:INSPECT_PG", "--run-id", "pg-1"], {
        INSPECT_PG: server.connectionString,
      });
      expect(snapshot.sessions.map((session) => [session.label, session.run?.status])).toEqual([
        ["run pg-1", "stopped"],
      ]);
      expect(snapshot.calls.map((call) => [call.toolCallId, call.status])).toEqual([
        ["r1", "interrupted"],
        ["r2", "interrupted"],
      ]);
      expect(await cli?.stop("SIGTERM")).toEqual({ code: 0, signal: null });
      expect(await other.acquire("pg-1")).toBeUndefined(); // still held by its holder
      await lease?.release();
    } finally {
      await holder.close();
      await other.close();
    }
  });
});
