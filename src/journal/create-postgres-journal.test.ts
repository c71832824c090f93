import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/support/free-port.js";
import { POSTGRES_RUNS, type PostgresServer, startPostgres } from "../../test/support/postgres.js";
import { createPostgresJournal, type PostgresJournal } from "./create-postgres-journal.js";
import { JournalError } from "./journal-error.js";
import type { JournalEntry } from "./run-journal.js";

const DIST_JOURNAL = resolve(import.meta.dirname, "../../dist/journal/index.js");

function ended(turns: number): JournalEntry {
  return { kind: "run-ended", reason: "done", turns };
}

if (!POSTGRES_RUNS) console.warn("skipping the PostgreSQL journal tests: initdb and postgres are not installed");

describe.skipIf(!POSTGRES_RUNS)("createPostgresJournal", () => {
  let server: PostgresServer;
  const journals: PostgresJournal[] = [];
  const children = new Set<ChildProcess>();
  const open = (table?: string) => {
    const journal = createPostgresJournal({ connectionString: server.connectionString, table });
    journals.push(journal);
    return journal;
  };

  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await Promise.all(journals.map((journal) => journal.close()));
    await server?.stop();
  });

  /** A child process that takes `runId`, says so, retries every 100 ms while refused, and holds it until killed. */
  function holdInChild(runId: string) {
    const script = `
      const { createPostgresJournal } = await import(${JSON.stringify(DIST_JOURNAL)});
      const journal = createPostgresJournal({ connectionString: ${JSON.stringify(server.connectionString)} });
      for (;;) {
        const lease = await journal.acquire(${JSON.stringify(runId)});
        process.stdout.write(lease ? "acquired\\n" : "refused\\n");
        if (lease) break;
        await new Promise((wake) => setTimeout(wake, 100));
      }
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.add(child);
    let output = "";
    const waiters: (() => void)[] = [];
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      for (const wake of waiters.splice(0)) wake();
    });
    const until = (wanted: string) =>
      new Promise<void>((resolvePromise, reject) => {
        const check = () => {
          if (output.includes(wanted)) resolvePromise();
          else if (child.exitCode !== null) reject(new Error(`child exited: ${output}`));
          else waiters.push(check);
        };
        child.once("exit", () => check());
        check();
      });
    return { child, until, first: () => until("\n").then(() => output.split("\n")[0]) };
  }

  it("creates its table, appends in order and reads back by sequence", async () => {
    const journal = open("journal_roundtrip");
    expect(await journal.read("run-1")).toEqual([]);
    await journal.append("run-1", [ended(1), ended(2)]);
    await journal.append("run-1", [ended(3)]);
    await journal.append("run-2", [ended(9)]);
    expect(await journal.read("run-1")).toEqual([ended(1), ended(2), ended(3)]);
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    const { rows } = await client.query("SELECT seq, created_at FROM journal_roundtrip WHERE run_id = 'run-1'");
    await client.end();
    expect(rows.map((row) => row.seq).sort()).toEqual([1, 2, 3]);
    expect(rows[0].created_at).toBeInstanceOf(Date);
  });

  it("appends from two journals at once to one run never collide: every batch lands whole", async () => {
    const first = open("journal_race");
    const second = open("journal_race");
    await Promise.all(
      Array.from({ length: 30 }, (_, batch) =>
        (batch % 2 === 0 ? first : second).append("r", [ended(batch * 10), ended(batch * 10 + 1)]),
      ),
    );
    const turns = (await first.read("r")).map((entry) => (entry as { turns: number }).turns);
    expect(new Set(turns).size).toBe(60);
    for (let index = 0; index < 60; index += 2) expect(turns[index + 1]).toBe((turns[index] as number) + 1);
  });

  it("rejects a stored row that is not an entry with journal-corrupt naming the sequence", async () => {
    const journal = open("journal_corrupt");
    await journal.append("r", [ended(1)]);
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    await client.query("INSERT INTO journal_corrupt (run_id, seq, entry) VALUES ('r', 2, '42'::jsonb)");
    await client.end();
    const error = await journal.read("r").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ code: "journal-corrupt", runId: "r" });
    expect((error as Error).message).toContain("sequence 2");
  });

  it("rejects a bad run id with invalid-run-id before touching the database", async () => {
    await expect(open().append("../x", [ended(1)])).rejects.toMatchObject({ code: "invalid-run-id" });
  });

  it("reports a server it cannot reach as journal-unavailable, without the password", async () => {
    const port = await freePort();
    const journal = createPostgresJournal({ connectionString: `postgres://me:s3cret-pw@127.0.0.1:${port}/db` });
    const error = await journal.read("r").catch((thrown: unknown) => thrown);
    await journal.close();
    expect(error).toMatchObject({ code: "journal-unavailable", runId: "r" });
    expect((error as Error).message).not.toContain("s3cret-pw");
  });

  it("acquire: one taker at a time; release lets the next one in; close ends the pool", async () => {
    const journal = open();
    const lease = await journal.acquire("held");
    expect(lease).toBeDefined();
    expect(await open().acquire("held")).toBeUndefined();
    await lease?.release();
    const other = open();
    expect(await other.acquire("held")).toBeDefined();
    await other.close();
    await expect(other.read("held")).rejects.toMatchObject({ code: "journal-unavailable" });
  });

  it("acquire: of two child processes racing for one run exactly one gets it; SIGKILL the holder and the other gets it", async () => {
    const racers = [holdInChild("contested"), holdInChild("contested")];
    const said = await Promise.all(racers.map((racer) => racer.first()));
    expect([...said].sort()).toEqual(["acquired", "refused"]);
    const holder = racers[said.indexOf("acquired")];
    const other = racers[said.indexOf("refused")];
    holder?.child.kill("SIGKILL");
    await other?.until("acquired");
  }, 30_000);
});
