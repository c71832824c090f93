// The gateway's audit log: one JSON line per tool call, appended in batches from a bounded queue, closed on a deadline.
import { constants } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { inputDigest } from "../../../core/approve/input-digest.js";
import type { JsonObject } from "../../../core/types.js";
import { McpServeError } from "../errors.js";

/** One line of the audit log (SPEC 16). It has no field for a credential: the call's input is its only user data. */
interface AuditEntry {
  /** When the call started, ISO 8601. */
  readonly time: string;
  readonly principal: string;
  readonly tool: string;
  readonly toolCallId: string;
  /** `inputDigest` of the input (`sha256:` and hex), the same digest approvals are bound to. */
  readonly inputDigest: string;
  /** `"ok"`, or the error code the call ended with. */
  readonly outcome: string;
  readonly durationMs: number;
  /** The input itself, only when the log was opened with `inputs: true`. */
  readonly input?: unknown;
}

/**
 * The line written in place of entries dropped while the queue was full (`whenFull: "drop"`): `dropped` entries
 * were recorded from `since` on and never written. It has no `tool`, which tells it from an entry.
 */
interface AuditDropRecord {
  /** When the queue had room again. */
  readonly time: string;
  readonly dropped: number;
  /** When the first of them was dropped. */
  readonly since: string;
}

/** What the caller hands `record`: the entry with the call's input, which the log digests (and keeps only if asked). */
export type AuditRecord = Omit<AuditEntry, "input" | "inputDigest"> & { readonly input: unknown };

/** An open audit log. */
export interface AuditLog {
  /**
   * Queues one entry; never throws. Only the fields of `AuditEntry` are written, whatever else the object
   * carries. The promise resolves at once, except with `whenFull: "wait"` while the queue is full: then once
   * the entry has its place in the queue (or is lost at close). It never rejects. After `close`, or once a
   * write has failed, entries are lost (reported through `onError`).
   */
  record(entry: AuditRecord): Promise<void>;
  /** Resolves once every entry recorded before the call is written (or lost). Never rejects. */
  flush(): Promise<void>;
  /**
   * Writes everything recorded before it, waiting at most `closeTimeoutMs`, then closes the file. What is not
   * written by then is lost and reported (a count). With `now`, also while a close is waiting, it stops waiting
   * at once. Idempotent; never rejects.
   */
  close(options?: { readonly now?: boolean }): Promise<void>;
  /** How many entries are in the file so far. */
  readonly written: number;
  /** What the queue holds now: entries recorded and not yet written (the batch being written too), and their bytes. */
  readonly queued: { readonly entries: number; readonly bytes: number };
  /** How many records wait for room in the queue (`whenFull: "wait"`). */
  readonly waiting: number;
  /** How many entries will never be in the file: dropped while full, after a failed write, after close, at close. */
  readonly lost: number;
}

/** Options of `openAuditLog`. */
export interface AuditLogOptions {
  /** The file to append to (a FIFO works too); created with mode 0600 if missing. Its directory must exist. */
  readonly file: string;
  /** Also write each call's input (default false: only its digest). */
  readonly inputs?: boolean;
  /** The most entries the queue holds before it is full. Default `DEFAULT_AUDIT_MAX_QUEUE_ENTRIES` (10,000). */
  readonly maxQueueEntries?: number;
  /**
   * The most bytes (of JSON lines) the queue holds before it is full; one entry bigger than this is still
   * taken when the queue is empty. Default `DEFAULT_AUDIT_MAX_QUEUE_BYTES` (8 MiB).
   */
  readonly maxQueueBytes?: number;
  /**
   * What happens to an entry when the queue is full: `"wait"` (the default) holds `record`'s promise until it
   * fits; `"drop"` drops it, and the next line written is an `AuditDropRecord` counting the dropped ones. A full
   * queue takes entries again once half of it is written.
   */
  readonly whenFull?: "wait" | "drop";
  /** How long `close` waits for the queue to be written. Default `DEFAULT_AUDIT_CLOSE_TIMEOUT_MS` (5,000). */
  readonly closeTimeoutMs?: number;
  /**
   * Told once when the log stops working (a write or the close failed: later entries are lost), once when an
   * entry's input is not JSON data (it is logged with `inputDigest: "unavailable"`), once when an entry is
   * recorded after `close`, each time the queue fills up, each time entries were dropped (with how many), and at
   * close, how many entries were lost. Must not throw (a throw is ignored). Without it, each of these becomes a
   * process warning.
   */
  readonly onError?: (error: Error) => void;
}

/** How many entries the queue holds by default before it is full. */
const DEFAULT_AUDIT_MAX_QUEUE_ENTRIES = 10_000;
/** How many bytes the queue holds by default before it is full: 8 MiB. */
const DEFAULT_AUDIT_MAX_QUEUE_BYTES = 8 * 1024 * 1024;
/** How long closing waits by default for the queue to be written. */
const DEFAULT_AUDIT_CLOSE_TIMEOUT_MS = 5_000;

/** The most bytes one write takes: whole lines only, a line longer than this goes alone. */
const MAX_BATCH_BYTES = 256 * 1024;
/** How long to wait before trying again a FIFO that has no reader or whose buffer is full. */
const RETRY_MS = 50;
/**
 * Never blocks: opening a FIFO nobody reads fails (ENXIO) instead of waiting for a reader, and a write to a full
 * FIFO fails (EAGAIN) instead of waiting for room, so no thread waits on a reader that may never come (a thread
 * stuck in `open` also keeps the process from exiting). Regular files ignore O_NONBLOCK.
 */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

/**
 * Opens `options.file` for appending (mode 0600) and returns the log. Lines are written by whole lines in one
 * `write` each (batches of everything queued since the last write), so they never split or interleave, also with
 * other processes appending to the same regular file. A FIFO nobody reads yet is opened once a reader comes, the
 * entries waiting in the queue meanwhile. Rejects with an `McpServeError`: `serve-failed` naming the file when it
 * cannot be opened (a missing directory, a directory, no permission; it never creates directories),
 * `invalid-serve-options` for a limit that is not a positive whole number or a `whenFull` other than wait and drop.
 */
export async function openAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  const limits = readLimits(options);
  let handle: FileHandle | undefined;
  try {
    handle = await open(options.file, WRITE_FLAGS, 0o600);
  } catch (error) {
    // A FIFO with no reader yet: the first write opens it, once someone reads.
    if (!((error as NodeJS.ErrnoException).code === "ENXIO" && (await isFifo(options.file)))) {
      throw new McpServeError(
        "serve-failed",
        `cannot open the audit log ${options.file}: ${(error as Error).message}; create its directory or set audit.file to a writable file`,
        { cause: error },
      );
    }
  }
  return createAuditLog(handle, options, limits);
}

interface Limits {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly whenFull: "wait" | "drop";
  readonly closeTimeoutMs: number;
}

/** One piece of the queue: an entry's line, or a drop record (which counts no entry). */
interface Item {
  readonly text: string;
  readonly bytes: number;
  readonly entries: 0 | 1;
}

const DONE = Promise.resolve();

/** Thrown inside the writer once the log stopped waiting for the file (close ran out of time). */
const STOPPED = new Error("the audit log stopped waiting");

function createAuditLog(initial: FileHandle | undefined, options: AuditLogOptions, limits: Limits): AuditLog {
  const { file } = options;
  const withInputs = options.inputs === true;
  let handle = initial;
  let queue: Item[] = [];
  /** Items (entries and drop records), entries and bytes queued and not yet written, the batch being written too. */
  let queuedItems = 0;
  let queuedEntries = 0;
  let queuedBytes = 0;
  const waiting: { readonly item: Item; readonly resolve: () => void }[] = [];
  /** Full: no entry is queued (they wait or are dropped) until half of the queue is written. */
  let full = false;
  let dropped = 0;
  let droppedSince: string | undefined;
  /** Items accepted, and items done with (written or lost); a flush waits for `done` to reach its mark. */
  let accepted = 0;
  let done = 0;
  let written = 0;
  let lost = 0;
  let lostToFailure = 0;
  let draining = false;
  let failed = false;
  /** The close stopped waiting: nothing more is written. */
  let stopped = false;
  let closing: Promise<void> | undefined;
  let stopWaiting: (() => void) | undefined;
  let wake: (() => void) | undefined;
  let reportedLate = false;
  let reportedUnserializable = false;
  const flushes: { readonly mark: number; readonly resolve: () => void }[] = [];

  const report = (error: Error) => {
    try {
      if (options.onError !== undefined) options.onError(error);
      else process.emitWarning(error);
    } catch {
      // onError must not throw; if it does, the log carries on.
    }
  };

  /** Every entry queued or waiting is lost; returns how many. */
  const discard = (): number => {
    const count = queuedEntries + waiting.length;
    done += queuedItems + waiting.length;
    lost += count;
    queue = [];
    queuedItems = 0;
    queuedEntries = 0;
    queuedBytes = 0;
    for (const waiter of waiting.splice(0)) waiter.resolve();
    return count;
  };

  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    lostToFailure += discard();
    settleFlushes();
    report(error);
  };

  const settleFlushes = () => {
    for (let i = flushes.length - 1; i >= 0; i--) {
      const flush = flushes[i]!;
      if (flush.mark <= done) {
        flushes.splice(i, 1);
        flush.resolve();
      }
    }
  };

  const fits = (item: Item) =>
    queuedBytes === 0 ||
    (queuedEntries + item.entries <= limits.maxEntries && queuedBytes + item.bytes <= limits.maxBytes);

  const enqueue = (item: Item) => {
    queue.push(item);
    queuedItems++;
    queuedEntries += item.entries;
    queuedBytes += item.bytes;
    if (!draining) void drain();
  };

  const becomeFull = () => {
    full = true;
    const then =
      limits.whenFull === "drop"
        ? 'entries are dropped until half of it is written, then a line {"dropped": N} says how many'
        : "calls wait for their entries to fit";
    report(
      new McpServeError(
        "serve-failed",
        `the audit log ${file} is full (${queuedEntries} entries, ${queuedBytes} bytes not yet written): ${then}`,
      ),
    );
  };

  const queueDropRecord = () => {
    const record: AuditDropRecord = { time: new Date().toISOString(), dropped, since: droppedSince ?? "" };
    report(
      new McpServeError(
        "serve-failed",
        `the audit log ${file} dropped ${dropped} ${dropped === 1 ? "entry" : "entries"} while its queue was full`,
      ),
    );
    dropped = 0;
    droppedSince = undefined;
    const text = `${JSON.stringify(record)}\n`;
    accepted++;
    enqueue({ text, bytes: Buffer.byteLength(text), entries: 0 });
  };

  /** After a write: once half of a full queue is written, it takes entries again, the waiting ones first. */
  const makeRoom = () => {
    if (!full || queuedEntries > limits.maxEntries / 2 || queuedBytes > limits.maxBytes / 2) return;
    full = false;
    if (dropped > 0) queueDropRecord();
    while (waiting.length > 0) {
      if (!fits(waiting[0]!.item)) {
        full = true;
        return;
      }
      const waiter = waiting.shift()!;
      enqueue(waiter.item);
      waiter.resolve();
    }
  };

  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, RETRY_MS);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  /** Writes all of `bytes`: a short write is continued, a FIFO without a reader or room is tried again. */
  const writeAll = async (bytes: Buffer) => {
    let offset = 0;
    while (offset < bytes.length) {
      if (stopped) throw STOPPED;
      try {
        handle ??= await open(file, WRITE_FLAGS, 0o600);
        const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
        if (bytesWritten <= 0) throw new Error("the write made no progress");
        offset += bytesWritten;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "EAGAIN" && code !== "ENXIO") throw error;
        await pause();
      }
    }
  };

  const drain = async () => {
    draining = true;
    // Every record of the current turn joins the first batch.
    await Promise.resolve();
    while (queue.length > 0 && !failed && !stopped) {
      const batch = takeBatch();
      try {
        await writeAll(Buffer.from(batch.text, "utf8"));
        if (stopped) break;
        written += batch.entries;
        done += batch.items;
        queuedItems -= batch.items;
        queuedEntries -= batch.entries;
        queuedBytes -= batch.bytes;
      } catch (error) {
        // Once stopped, the close counted this batch as lost already.
        if (stopped) break;
        done += batch.items;
        lost += batch.entries;
        lostToFailure += batch.entries;
        queuedItems -= batch.items;
        queuedEntries -= batch.entries;
        queuedBytes -= batch.bytes;
        fail(
          new McpServeError("serve-failed", `the audit log ${file} could not be written: ${(error as Error).message}`, {
            cause: error,
          }),
        );
      }
      makeRoom();
      settleFlushes();
    }
    draining = false;
  };

  const takeBatch = () => {
    let end = 0;
    let bytes = 0;
    let entries = 0;
    while (end < queue.length && (end === 0 || bytes + queue[end]!.bytes <= MAX_BATCH_BYTES)) {
      bytes += queue[end]!.bytes;
      entries += queue[end]!.entries;
      end++;
    }
    const items = end === queue.length ? queue : queue.slice(0, end);
    queue = end === queue.length ? [] : queue.slice(end);
    return { text: items.map((item) => item.text).join(""), items: end, bytes, entries };
  };

  const flush = () => {
    if (done >= accepted) return Promise.resolve();
    const mark = accepted;
    return new Promise<void>((resolve) => flushes.push({ mark, resolve }));
  };

  const closeFile = async (wait: boolean) => {
    if (handle === undefined) return;
    const closed = handle.close();
    if (!wait) {
      // A write still under way (a slow disk) would hold the close up: let it finish on its own.
      closed.catch(() => undefined);
      return;
    }
    await closed.catch((error: unknown) => {
      fail(
        new McpServeError("serve-failed", `the audit log ${file} could not be closed: ${(error as Error).message}`, {
          cause: error,
        }),
      );
    });
  };

  const runClose = async (now: boolean) => {
    if (dropped > 0 && !failed) queueDropRecord();
    const drained = flush().then(() => "drained" as const);
    let timer: NodeJS.Timeout | undefined;
    const outcome =
      done >= accepted
        ? "drained"
        : await Promise.race([
            drained,
            new Promise<"deadline" | "now">((resolve) => {
              stopWaiting = () => resolve("now");
              if (now) resolve("now");
              else timer = setTimeout(() => resolve("deadline"), limits.closeTimeoutMs);
            }),
          ]);
    clearTimeout(timer);
    stopWaiting = undefined;
    if (outcome !== "drained") {
      stopped = true;
      wake?.();
      const count = discard();
      settleFlushes();
      if (count > 0) {
        const when = outcome === "now" ? "when told to stop at once" : `within ${limits.closeTimeoutMs} ms of closing`;
        report(
          new McpServeError(
            "serve-failed",
            `the audit log ${file} lost ${count} ${count === 1 ? "entry" : "entries"}: not written ${when} (the file took no more data)`,
          ),
        );
      }
    }
    if (lostToFailure > 0) {
      report(
        new McpServeError(
          "serve-failed",
          `the audit log ${file} lost ${lostToFailure} ${lostToFailure === 1 ? "entry" : "entries"} after a write failed`,
        ),
      );
    }
    await closeFile(outcome === "drained");
  };

  return {
    record(entry) {
      if (closing !== undefined) {
        lost++;
        if (!reportedLate) {
          reportedLate = true;
          report(
            new McpServeError(
              "serve-failed",
              `the audit log ${file} is closed; the entry of tool call ${String(entry.toolCallId)} was dropped`,
            ),
          );
        }
        return DONE;
      }
      if (failed) {
        lost++;
        lostToFailure++;
        return DONE;
      }
      let line: string;
      try {
        line = auditLine(entry, withInputs);
      } catch (error) {
        // Not JSON data (dispatch hands plain JSON, so this is a bug upstream): the call is still logged.
        line = auditLine({ ...pickFields(entry), input: undefined }, false, UNSERIALIZABLE);
        if (!reportedUnserializable) {
          reportedUnserializable = true;
          report(
            new McpServeError(
              "serve-failed",
              `the input of tool call ${String(entry.toolCallId)} is not JSON data (${(error as Error).message}); it was logged with inputDigest "${UNSERIALIZABLE}"`,
              { cause: error },
            ),
          );
        }
      }
      const item: Item = { text: line, bytes: Buffer.byteLength(line), entries: 1 };
      if (!full && fits(item)) {
        accepted++;
        enqueue(item);
        return DONE;
      }
      if (!full) becomeFull();
      if (limits.whenFull === "drop") {
        lost++;
        dropped++;
        droppedSince ??= new Date().toISOString();
        return DONE;
      }
      accepted++;
      return new Promise<void>((resolve) => waiting.push({ item, resolve }));
    },
    flush,
    close(options) {
      if (options?.now === true) stopWaiting?.();
      closing ??= runClose(options?.now === true);
      return closing;
    },
    get written() {
      return written;
    },
    get queued() {
      return { entries: queuedEntries, bytes: queuedBytes };
    },
    get waiting() {
      return waiting.length;
    },
    get lost() {
      return lost;
    },
  };
}

function readLimits(options: AuditLogOptions): Limits {
  const whole = (name: "maxQueueEntries" | "maxQueueBytes" | "closeTimeoutMs", fallback: number): number => {
    const value = options[name];
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
      throw new McpServeError(
        "invalid-serve-options",
        `audit.${name} must be a whole number from 1 to 2147483647, not ${String(value)}`,
      );
    }
    return value;
  };
  const whenFull = options.whenFull ?? "wait";
  if (whenFull !== "wait" && whenFull !== "drop") {
    throw new McpServeError(
      "invalid-serve-options",
      `audit.whenFull must be "wait" or "drop", not ${JSON.stringify(whenFull) ?? String(whenFull)}`,
    );
  }
  return {
    maxEntries: whole("maxQueueEntries", DEFAULT_AUDIT_MAX_QUEUE_ENTRIES),
    maxBytes: whole("maxQueueBytes", DEFAULT_AUDIT_MAX_QUEUE_BYTES),
    whenFull,
    closeTimeoutMs: whole("closeTimeoutMs", DEFAULT_AUDIT_CLOSE_TIMEOUT_MS),
  };
}

async function isFifo(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFIFO();
  } catch {
    return false;
  }
}

/** What `inputDigest` says of an input that is not JSON data (a cycle, a BigInt). */
const UNSERIALIZABLE = "unavailable";

/** The JSON line of `entry`: the SPEC 16 fields in a fixed order, picked one by one so nothing else leaks in. */
function auditLine(entry: AuditRecord, withInputs: boolean, digest?: string): string {
  const line: Record<string, unknown> = {
    time: entry.time,
    principal: entry.principal,
    tool: entry.tool,
    toolCallId: entry.toolCallId,
    // canonicalJson (under inputDigest) takes any JSON value, so an input that is not an object digests too.
    inputDigest: digest ?? inputDigest(entry.input as JsonObject),
    outcome: entry.outcome,
    durationMs: entry.durationMs,
  };
  if (withInputs) line.input = entry.input;
  return `${JSON.stringify(line)}\n`;
}

/** The entry's fields other than its input, as strings and a number, so they serialize whatever they were. */
function pickFields(entry: AuditRecord): Omit<AuditRecord, "input"> {
  return {
    time: String(entry.time),
    principal: String(entry.principal),
    tool: String(entry.tool),
    toolCallId: String(entry.toolCallId),
    outcome: String(entry.outcome),
    durationMs: Number(entry.durationMs),
  };
}
