// The options of the gateway's audit log, their defaults, and the limits read from them.
import { McpServeError } from "../errors.js";

/** Options of `openAuditLog`. */
export interface AuditLogOptions {
  /** The file to append to (a FIFO works too); created with mode 0600 if missing. Its directory must exist. */
  readonly file: string;
  /** Also write each call's input (default false: only its digest). */
  readonly inputs?: boolean;
  /** The most entries the queue holds before it is full. Default 10,000 entries. */
  readonly maxQueueEntries?: number;
  /**
   * The most bytes (of JSON lines) the queue holds before it is full; one entry bigger than this is still
   * taken when the queue is empty. Default 8 MiB.
   */
  readonly maxQueueBytes?: number;
  /**
   * What happens to an entry when the queue is full: `"wait"` (the default) holds `record`'s promise until it
   * fits; `"drop"` drops it, and the next line written is an `AuditDropRecord` counting the dropped ones. A full
   * queue takes entries again once half of it is written.
   */
  readonly whenFull?: "wait" | "drop";
  /** How long `close` waits for the queue to be written. Default 5,000 ms. */
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

/** The options' limits, checked and with their defaults filled in. */
export interface AuditLimits {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly whenFull: "wait" | "drop";
  readonly closeTimeoutMs: number;
}

/**
 * The limits of `options`, defaults filled in. Throws `McpServeError` (`invalid-serve-options`) for a limit that is
 * not a whole number from 1 to 2147483647, or a `whenFull` other than wait and drop.
 */
export function readAuditLimits(options: AuditLogOptions): AuditLimits {
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
