// The gateway's audit log: one JSON line per tool call, appended in batches without ever holding up a call.
import { type FileHandle, open } from "node:fs/promises";
import { inputDigest } from "../core/approve/input-digest.js";
import type { JsonObject } from "../core/types.js";
import { McpServeError } from "../mcp/errors.js";

/** One line of the audit log (SPEC 16). It has no field for a credential: the call's input is its only user data. */
export interface AuditEntry {
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

/** What the caller hands `record`: the entry with the call's input, which the log digests (and keeps only if asked). */
export type AuditRecord = Omit<AuditEntry, "input" | "inputDigest"> & { readonly input: unknown };

/** An open audit log. */
export interface AuditLog {
  /**
   * Queues one entry and returns at once: never awaits, never throws. Only the fields of `AuditEntry`
   * are written, whatever else the object carries. After `close`, or once a write has failed, entries
   * are dropped (reported through `onError`).
   */
  record(entry: AuditRecord): void;
  /** Resolves once every entry recorded before the call is written (or dropped by a failure). Never rejects. */
  flush(): Promise<void>;
  /** Writes everything recorded before it, then closes the file. Idempotent; never rejects. */
  close(): Promise<void>;
  /** How many entries are in the file so far. */
  readonly written: number;
}

/** Options of `openAuditLog`. */
export interface AuditLogOptions {
  /** The file to append to; created with mode 0600 if missing. Its directory must exist. */
  readonly file: string;
  /** Also write each call's input (default false: only its digest). */
  readonly inputs?: boolean;
  /**
   * Told once when the log stops working (a write or the close failed: later entries are dropped),
   * once when an entry's input is not JSON data (it is logged with `inputDigest: "unavailable"`), and
   * once when an entry is recorded after `close`. Must not throw (a throw is ignored). Without it,
   * each of these becomes a process warning.
   */
  readonly onError?: (error: Error) => void;
}

/** The most text (UTF-16 units) one write takes: whole lines only, a line longer than this goes alone. */
const MAX_BATCH_CHARS = 256 * 1024;

/**
 * Opens `options.file` for appending (flags `"a"`, mode 0600) and returns the log. Lines are written by
 * whole lines in one `write` each (batches of everything recorded since the last write), so they never
 * split or interleave, also with other processes appending to the same file. Rejects with an
 * `McpServeError` (`serve-failed`) naming the file when it cannot be opened (a missing directory, a
 * directory, no permission); it never creates directories.
 */
export async function openAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  let handle: FileHandle;
  try {
    handle = await open(options.file, "a", 0o600);
  } catch (error) {
    throw new McpServeError(
      "serve-failed",
      `cannot open the audit log ${options.file}: ${(error as Error).message}; create its directory or set audit.file to a writable file`,
      { cause: error },
    );
  }
  return createAuditLog(handle, options);
}

function createAuditLog(handle: FileHandle, options: AuditLogOptions): AuditLog {
  const withInputs = options.inputs === true;
  let queue: string[] = [];
  /** Entries accepted, and entries done with (written or dropped); a flush waits for `done` to reach its mark. */
  let accepted = 0;
  let done = 0;
  let written = 0;
  let draining = false;
  let failed = false;
  let closing: Promise<void> | undefined;
  let reportedLate = false;
  let reportedUnserializable = false;
  const waiters: { readonly mark: number; readonly resolve: () => void }[] = [];

  const report = (error: Error) => {
    try {
      if (options.onError !== undefined) options.onError(error);
      else process.emitWarning(error);
    } catch {
      // onError must not throw; if it does, the log carries on.
    }
  };

  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    done += queue.length;
    queue = [];
    settleWaiters();
    report(error);
  };

  const settleWaiters = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (waiter.mark <= done) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };

  const drain = async () => {
    draining = true;
    // Every record of the current turn joins the first batch.
    await Promise.resolve();
    while (queue.length > 0) {
      const { text, count } = takeBatch();
      try {
        await writeWhole(handle, Buffer.from(text, "utf8"));
        written += count;
        done += count;
      } catch (error) {
        done += count;
        fail(
          new McpServeError(
            "serve-failed",
            `the audit log ${options.file} could not be written: ${(error as Error).message}`,
            {
              cause: error,
            },
          ),
        );
      }
      settleWaiters();
    }
    draining = false;
  };

  const takeBatch = () => {
    let end = 0;
    let chars = 0;
    while (end < queue.length && (end === 0 || chars + queue[end]!.length <= MAX_BATCH_CHARS)) {
      chars += queue[end]!.length;
      end++;
    }
    const lines = end === queue.length ? queue : queue.slice(0, end);
    queue = end === queue.length ? [] : queue.slice(end);
    return { text: lines.join(""), count: end };
  };

  const flush = () => {
    if (done >= accepted) return Promise.resolve();
    const mark = accepted;
    return new Promise<void>((resolve) => waiters.push({ mark, resolve }));
  };

  return {
    record(entry) {
      if (closing !== undefined) {
        if (!reportedLate) {
          reportedLate = true;
          report(
            new McpServeError(
              "serve-failed",
              `the audit log ${options.file} is closed; the entry of tool call ${String(entry.toolCallId)} was dropped`,
            ),
          );
        }
        return;
      }
      if (failed) return;
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
      queue.push(line);
      accepted++;
      if (!draining) void drain();
    },
    flush,
    close() {
      closing ??= flush().then(() =>
        handle.close().catch((error: unknown) => {
          fail(
            new McpServeError(
              "serve-failed",
              `the audit log ${options.file} could not be closed: ${(error as Error).message}`,
              {
                cause: error,
              },
            ),
          );
        }),
      );
      return closing;
    },
    get written() {
      return written;
    },
  };
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

/** Writes all of `bytes` at the end of the file (a short write, rare for a regular file, is continued). */
async function writeWhole(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw new Error("the write made no progress");
    offset += bytesWritten;
  }
}
