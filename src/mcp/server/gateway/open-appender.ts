// Appending whole buffers to a file or a FIFO without ever blocking a thread: a FIFO with no reader or no room is tried
// again a little later.
import { constants } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";

/** How long to wait before trying again a FIFO that has no reader or whose buffer is full. */
const RETRY_MS = 50;
/**
 * Never blocks: opening a FIFO nobody reads fails (ENXIO) instead of waiting for a reader, and a write to a full
 * FIFO fails (EAGAIN) instead of waiting for room, so no thread waits on a reader that may never come (a thread
 * stuck in `open` also keeps the process from exiting). Regular files ignore O_NONBLOCK.
 */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

/** What `write` rejects with once the appender was told to stop waiting for the file. */
const STOPPED = new Error("stopped waiting for the file");

/** A file or FIFO opened for appending (`openAppender`). */
export interface Appender {
  /**
   * Writes all of `bytes` in as few `write` calls as the file takes: a short write is continued, a FIFO without a
   * reader or room is tried again every 50 ms. Rejects after `stop`, or with the error of a write that failed.
   */
  write(bytes: Buffer): Promise<void>;
  /** Stops waiting for the file: a write waiting to try again rejects at once, and so does every later one. */
  stop(): void;
  /** Closes the file, when it was opened; rejects when closing fails. */
  close(): Promise<void>;
}

/**
 * Opens `file` for appending (mode 0600 when it is created). A FIFO nobody reads yet is opened by the first write
 * once a reader comes. Rejects with the error of `open` otherwise (a missing directory, a directory, no permission).
 */
export async function openAppender(file: string): Promise<Appender> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, WRITE_FLAGS, 0o600);
  } catch (error) {
    // A FIFO with no reader yet: the first write opens it, once someone reads.
    if (!((error as NodeJS.ErrnoException).code === "ENXIO" && (await isFifo(file)))) throw error;
  }
  let stopped = false;
  let wake: (() => void) | undefined;

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

  return {
    async write(bytes) {
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
    },
    stop() {
      stopped = true;
      wake?.();
    },
    async close() {
      await handle?.close();
    },
  };
}

async function isFifo(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFIFO();
  } catch {
    return false;
  }
}
