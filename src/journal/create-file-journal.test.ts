import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileJournal } from "./create-file-journal.js";
import { JournalError } from "./journal-error.js";
import type { JournalEntry } from "./run-journal.js";

const DIST_JOURNAL = resolve(import.meta.dirname, "../../dist/journal/index.js");

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "toolwire-journal-"));
});
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  rmSync(folder, { recursive: true, force: true });
});

const children = new Set<ChildProcess>();

function ended(turns: number): JournalEntry {
  return { kind: "run-ended", reason: "done", turns };
}

/** A child process that takes `runId` in `folder` and holds it until killed; resolves with what it printed first. */
function holdInChild(runId: string): Promise<{ child: ChildProcess; said: string }> {
  const script = `
    const { createFileJournal } = await import(${JSON.stringify(DIST_JOURNAL)});
    const lease = await createFileJournal(${JSON.stringify(folder)}).acquire(${JSON.stringify(runId)});
    process.stdout.write(lease ? "acquired\\n" : "refused\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  return new Promise((resolvePromise, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("\n")) resolvePromise({ child, said: output.trim() });
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before answering: ${output}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolvePromise());
    child.kill("SIGKILL");
  });
}

describe("createFileJournal", () => {
  it("reads back what was appended, in order, as JSON lines in <runId>.jsonl", async () => {
    const journal = createFileJournal(join(folder, "runs"));
    expect(await journal.read("run-1")).toEqual([]);
    await journal.append("run-1", [ended(1), ended(2)]);
    await journal.append("run-1", [ended(3)]);
    expect(await journal.read("run-1")).toEqual([ended(1), ended(2), ended(3)]);
    expect(readFileSync(join(folder, "runs", "run-1.jsonl"), "utf8").split("\n")).toHaveLength(4);
  });

  it("ignores a torn last line, and the next append cuts it off", async () => {
    const journal = createFileJournal(folder);
    await journal.append("r", [ended(1)]);
    appendFileSync(join(folder, "r.jsonl"), '{"kind":"run-ended","rea');
    expect(await journal.read("r")).toEqual([ended(1)]);
    await journal.append("r", [ended(2)]);
    expect(await journal.read("r")).toEqual([ended(1), ended(2)]);
  });

  it("rejects a corrupt line before the last with journal-corrupt naming the line", async () => {
    writeFileSync(join(folder, "r.jsonl"), `${JSON.stringify(ended(1))}\n{not json\n${JSON.stringify(ended(3))}\n`);
    const error = await createFileJournal(folder)
      .read("r")
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ code: "journal-corrupt", runId: "r" });
    expect((error as Error).message).toContain("line 2");
  });

  it("refuses a run id that is not a safe file name, and writes nothing outside the folder", async () => {
    const journal = createFileJournal(join(folder, "runs"));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom("", ".", "..", "../x", "a/b", "/etc/passwd", ".hidden", "a\0b", "a\\b", "x".repeat(201)),
          fc.string().filter((text) => !/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/.test(text)),
        ),
        async (runId) => {
          await expect(journal.append(runId, [ended(1)])).rejects.toMatchObject({ code: "invalid-run-id" });
          await expect(journal.read(runId)).rejects.toMatchObject({ code: "invalid-run-id" });
        },
      ),
      { numRuns: 50 },
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it("serializes concurrent appends to one run: every entry lands whole, each batch in one piece", async () => {
    const journal = createFileJournal(folder);
    await Promise.all(
      Array.from({ length: 40 }, (_, batch) => journal.append("r", [ended(batch * 10), ended(batch * 10 + 1)])),
    );
    const turns = (await journal.read("r")).map((entry) => (entry as { turns: number }).turns);
    expect(turns).toHaveLength(80);
    expect(new Set(turns).size).toBe(80);
    for (let index = 0; index < 80; index += 2) expect(turns[index + 1]).toBe((turns[index] as number) + 1);
  });

  it("acquire: a second taker in the same process is refused until the lease is released", async () => {
    const journal = createFileJournal(folder);
    const lease = await journal.acquire("r");
    expect(lease).toBeDefined();
    expect(await journal.acquire("r")).toBeUndefined();
    await lease?.release();
    const again = await journal.acquire("r");
    expect(again).toBeDefined();
    await again?.release();
    expect(readdirSync(folder)).toEqual([]);
  });

  it("acquire: refused while a live child process holds the run, taken once it was SIGKILLed", async () => {
    const { child, said } = await holdInChild("r");
    expect(said).toBe("acquired");
    const journal = createFileJournal(folder);
    expect(await journal.acquire("r")).toBeUndefined();
    await killed(child);
    const lease = await journal.acquire("r");
    expect(lease).toBeDefined();
    expect(JSON.parse(readFileSync(join(folder, "r.lock"), "utf8"))).toMatchObject({ pid: process.pid });
    await lease?.release();
  });

  it("acquire: of two child processes racing for one run, exactly one gets it", async () => {
    const answers = await Promise.all([holdInChild("r"), holdInChild("r")]);
    expect(answers.map((answer) => answer.said).sort()).toEqual(["acquired", "refused"]);
  });

  const LINUX_FDS = process.platform === "linux";
  /** How many of this process's open files are `file` (from /proc/self/fd). */
  function openCount(file: string): number {
    return readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return readlinkSync(join("/proc/self/fd", fd)) === file;
      } catch {
        return false;
      }
    }).length;
  }

  it.skipIf(!LINUX_FDS)(
    "keeps a held run's file open from its first append to the release, and closes it then (Linux: /proc/self/fd)",
    async () => {
      const journal = createFileJournal(folder);
      const file = join(folder, "r.jsonl");
      await journal.append("free", [ended(0)]);
      expect(openCount(join(folder, "free.jsonl"))).toBe(0);
      const lease = await journal.acquire("r");
      await journal.append("r", [ended(1)]);
      await journal.append("r", [ended(2)]);
      expect(openCount(file)).toBe(1);
      // A torn line left by a crash is cut off when the held file is opened.
      await lease?.release();
      expect(openCount(file)).toBe(0);
      appendFileSync(file, '{"kind":"run-en');
      const again = await journal.acquire("r");
      await journal.append("r", [ended(3)]);
      expect((await journal.read("r")).map((entry) => (entry as { turns: number }).turns)).toEqual([1, 2, 3]);
      await again?.release();
      expect(openCount(file)).toBe(0);
    },
  );
});
