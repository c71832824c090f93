// A run journal in a folder: one JSON-lines file per run, fsynced on every append, and a lock file per run taken.
import { randomUUID } from "node:crypto";
import { constants, type FileHandle, link, mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { describeThrown } from "../core/errors.js";
import { checkRunId, isEntryShaped } from "./check-run-id.js";
import { groupAppends } from "./group-appends.js";
import { JournalError } from "./journal-error.js";
import type { JournalEntry, RunJournal, RunLease } from "./run-journal.js";

/** A file journal, and the folder it writes. */
export interface FileJournal extends RunJournal {
  readonly folder: string;
  acquire(runId: string): Promise<RunLease | undefined>;
}

/** What a lock file holds: its holder's process id, when it took the run, and a token only the holder knows. */
interface LockContent {
  readonly pid: number;
  readonly acquiredAt: number;
  readonly token: string;
}

const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL;

/**
 * A run journal in `folder` (made on the first append): run `R` is the file `R.jsonl`, one entry per line.
 * `append` writes its entries in one write and fsyncs the file (and the folder, when it made the file) before it
 * resolves; appends to one run from this process run one after another, in order, those made while a write is under
 * way written together in the next. `read` ignores a torn last line (a line
 * without its newline, left by a crash during a write; the next append cuts it off) and rejects with `JournalError`
 * `journal-corrupt` for a bad line before the last. Run ids must match `RUN_ID_PATTERN` (`invalid-run-id`).
 *
 * `acquire(R)` takes the file `R.lock` (made whole, then linked into place, so it never exists half written),
 * holding the holder's process id: `undefined` while that process is alive, taken over once it is dead. Process ids
 * mean something on one machine only: processes on several machines sharing a folder (NFS) must not rely on it.
 * While this process holds a run, its file stays open from its first append until `release`.
 */
export function createFileJournal(folder: string): FileJournal {
  if (typeof folder !== "string" || folder === "") {
    throw new JournalError("invalid-journal-options", "createFileJournal needs a folder path.");
  }
  const runFile = (runId: string) => join(folder, `${runId}.jsonl`);

  const appends = groupAppends(appendNow);
  /** The runs this process holds (`acquire`), each with its file kept open from the first append to the release. */
  const held = new Map<string, { handle?: FileHandle }>();

  /** Opens the run's file for appending, cutting off a torn last line; fsyncs the folder when it made the file. */
  async function openRun(runId: string): Promise<FileHandle> {
    const file = runFile(runId);
    let handle: FileHandle;
    let created = false;
    try {
      await mkdir(folder, { recursive: true });
      try {
        handle = await open(file, APPEND_FLAGS, 0o600);
        created = true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        handle = await open(file, constants.O_RDWR | constants.O_APPEND);
      }
    } catch (error) {
      throw unavailable(runId, `cannot open ${file}`, error);
    }
    try {
      if (created) await syncFolder(folder);
      else await cutTornTail(handle);
      return handle;
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw unavailable(runId, `cannot open ${file}`, error);
    }
  }

  async function appendNow(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
    // A held run's file stays open between appends (a durable call appends twice); any other opens and closes.
    const lease = held.get(runId);
    const handle = lease?.handle ?? (await openRun(runId));
    if (lease !== undefined) lease.handle = handle;
    try {
      await handle.write(text);
      await handle.sync();
    } catch (error) {
      if (lease !== undefined) lease.handle = undefined; // the next append opens it again, cutting a torn line
      await handle.close().catch(() => undefined);
      throw unavailable(runId, `cannot append to ${runFile(runId)}`, error);
    }
    if (lease === undefined) await handle.close().catch(() => undefined);
  }

  return {
    folder,
    async append(runId, entries) {
      checkRunId(runId);
      if (entries.length === 0) return;
      await appends.append(runId, entries);
    },

    async read(runId) {
      checkRunId(runId);
      const file = runFile(runId);
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw unavailable(runId, `cannot read ${file}`, error);
      }
      const lines = text.split("\n");
      // The piece after the last newline is "" for a whole file, else a torn line: left out.
      lines.pop();
      return lines.map((line, index) => {
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          entry = undefined;
        }
        if (!isEntryShaped(entry)) {
          throw new JournalError(
            "journal-corrupt",
            `The journal of run ${runId} (${file}) is corrupt at line ${index + 1}: not a journal entry.`,
            runId,
          );
        }
        return entry as JournalEntry;
      });
    },

    async acquire(runId) {
      checkRunId(runId);
      const lockFile = join(folder, `${runId}.lock`);
      const content: LockContent = { pid: process.pid, acquiredAt: Date.now(), token: randomUUID() };
      try {
        await mkdir(folder, { recursive: true });
        if (!(await placeLock(lockFile, content))) {
          const stale = await findStaleLock(lockFile);
          if (stale === undefined || !(await removeStaleLock(lockFile, stale))) return undefined;
          if (!(await placeLock(lockFile, content))) return undefined;
        }
      } catch (error) {
        throw unavailable(runId, `cannot take ${lockFile}`, error);
      }
      const lease: { handle?: FileHandle } = {};
      held.set(runId, lease);
      let released: Promise<void> | undefined;
      return {
        release() {
          released ??= (async () => {
            if (held.get(runId) === lease) held.delete(runId);
            // Appends already queued finish first.
            await appends.settled(runId);
            await lease.handle?.close().catch(() => undefined);
            const holder = await readLock(lockFile);
            if (holder?.token === content.token) await unlink(lockFile).catch(() => undefined);
          })();
          return released;
        },
      };
    },
  };
}

/** Makes `lockFile` holding `content`, whole or not at all; false when it already exists. */
async function placeLock(lockFile: string, content: LockContent): Promise<boolean> {
  const draft = `${lockFile}.${content.token}.tmp`;
  const handle = await open(draft, "wx", 0o600);
  try {
    await handle.writeFile(JSON.stringify(content));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(draft, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/** The lock file's inode when its holder is dead (or the lock is unreadable), else undefined (held, or gone). */
async function findStaleLock(lockFile: string): Promise<number | undefined> {
  let inode: number;
  try {
    inode = (await stat(lockFile)).ino;
  } catch (error) {
    // Released between our try and now: stale in effect, and nothing to remove.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return -1;
    throw error;
  }
  const held = await readLock(lockFile);
  return held !== undefined && isAlive(held.pid) ? undefined : inode;
}

/**
 * Moves the stale lock out of the way. Another process may have taken the lock over between our look and the move:
 * the inode tells, and then its lock is put back and we lose.
 */
async function removeStaleLock(lockFile: string, inode: number): Promise<boolean> {
  if (inode === -1) return true;
  const aside = `${lockFile}.${randomUUID()}.stale`;
  try {
    await rename(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  if ((await stat(aside)).ino !== inode) {
    await link(aside, lockFile).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return false;
  }
  await unlink(aside).catch(() => undefined);
  return true;
}

async function readLock(lockFile: string): Promise<LockContent | undefined> {
  try {
    const parsed = JSON.parse(await readFile(lockFile, "utf8")) as Partial<LockContent>;
    if (Number.isInteger(parsed.pid) && typeof parsed.token === "string") return parsed as LockContent;
  } catch {
    // Missing or unreadable: no live holder can be named.
  }
  return undefined;
}

/** Whether process `pid` exists on this machine (EPERM: it exists, owned by another user). */
function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A crash mid-write can leave a last line without its newline: cut it off so the next line starts clean. */
async function cutTornTail(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  const whole = await handle.readFile();
  await handle.truncate(whole.lastIndexOf(0x0a) + 1);
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function unavailable(runId: string, what: string, error: unknown): JournalError {
  return new JournalError("journal-unavailable", `Journal of run ${runId}: ${what}: ${describeThrown(error)}`, runId, {
    cause: error,
  });
}
