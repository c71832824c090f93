// The gateway's audit log: one JSON line per tool call, appended in batches from a bounded queue, closed on a deadline.
import { McpServeError } from "../errors.js";
import { type AuditDropRecord, type AuditRecord, auditLine, pickFields, UNSERIALIZABLE } from "./audit-line.js";
import { type AuditLimits, type AuditLogOptions, readAuditLimits } from "./audit-log-options.js";
import { type Appender, openAppender } from "./open-appender.js";

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

/** The most bytes one write takes: whole lines only, a line longer than this goes alone. */
const MAX_BATCH_BYTES = 256 * 1024;

/**
 * Opens `options.file` for appending (mode 0600) and returns the log. Lines are written by whole lines in one
 * `write` each (batches of everything queued since the last write), so they never split or interleave, also with
 * other processes appending to the same regular file. A FIFO nobody reads yet is opened once a reader comes, the
 * entries waiting in the queue meanwhile. Rejects with an `McpServeError`: `serve-failed` naming the file when it
 * cannot be opened (a missing directory, a directory, no permission; it never creates directories),
 * `invalid-serve-options` for a limit that is not a positive whole number or a `whenFull` other than wait and drop.
 */
export async function openAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  const limits = readAuditLimits(options);
  let appender: Appender;
  try {
    appender = await openAppender(options.file);
  } catch (error) {
    throw new McpServeError(
      "serve-failed",
      `cannot open the audit log ${options.file}: ${(error as Error).message}; create its directory or set audit.file to a writable file`,
      { cause: error },
    );
  }
  return createAuditLog(appender, options, limits);
}

/** One piece of the queue: an entry's line, or a drop record (which counts no entry). */
interface Item {
  readonly text: string;
  readonly bytes: number;
  readonly entries: 0 | 1;
}

const DONE = Promise.resolve();

function createAuditLog(appender: Appender, options: AuditLogOptions, limits: AuditLimits): AuditLog {
  const { file } = options;
  const withInputs = options.inputs === true;
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

  const drain = async () => {
    draining = true;
    // Every record of the current turn joins the first batch.
    await Promise.resolve();
    while (queue.length > 0 && !failed && !stopped) {
      const batch = takeBatch();
      try {
        await appender.write(Buffer.from(batch.text, "utf8"));
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
    const closed = appender.close();
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
      appender.stop();
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
