// Opening a file inside the workspace: kind checked before the open, never blocking, the open file checked after.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath, stat } from "node:fs/promises";
import type { Workspace } from "./workspace.js";

/** Why a file was not opened. */
type OpenRefusal =
  | { readonly kind: "missing" }
  | { readonly kind: "folder" }
  /** A FIFO, socket or device: never opened for reading, or closed at once when one was swapped in. */
  | { readonly kind: "special"; readonly what: string }
  /** A symbolic link where none may be (a followed link is refused only when asked with `noFollow`). */
  | { readonly kind: "link" }
  /** What was opened is not inside the root: the path changed (a folder swapped for a link) during the call. */
  | { readonly kind: "outside" }
  | { readonly kind: "unreadable"; readonly error: unknown };

/** An open regular file inside the root, or why not. The caller closes `handle`. */
type OpenOutcome =
  | { readonly kind: "opened"; readonly handle: FileHandle; readonly stats: Stats }
  | { readonly kind: "refused"; readonly refusal: OpenRefusal };

// O_NONBLOCK: a FIFO swapped in between the check and the open must not block a thread-pool thread.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Whether `/proc/self/fd` names what a descriptor is open on (Linux). */
export const HAS_PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

/**
 * Opens `real` (a path the workspace guard resolved) for reading, only when it is a regular file
 * inside the root. Checks its kind with `stat` before opening (a FIFO or device is never opened),
 * opens with `O_NONBLOCK | O_NOFOLLOW`, then checks the descriptor itself: a regular file, whose
 * real location (`/proc/self/fd/<fd>` on Linux; elsewhere the real path's device and inode) is inside
 * the root. With `noFollow`, a link at `real` itself is refused rather than followed. Never throws.
 */
export async function openFileInside(
  workspace: Workspace,
  real: string,
  options: { readonly noFollow?: boolean } = {},
): Promise<OpenOutcome> {
  const refused = (refusal: OpenRefusal): OpenOutcome => ({ kind: "refused", refusal });
  try {
    const before = options.noFollow === true ? await lstat(real) : await stat(real);
    const kind = kindOf(before);
    if (kind !== undefined) return refused(kind);
  } catch (error) {
    return refused(refusalOf(error));
  }
  let handle: FileHandle;
  try {
    handle = await open(real, READ_FLAGS);
  } catch (error) {
    return refused(refusalOf(error));
  }
  try {
    const stats = await handle.stat();
    const kind = kindOf(stats);
    if (kind === undefined && (await isOpenedInside(workspace, handle, real, stats))) {
      return { kind: "opened", handle, stats };
    }
    await handle.close();
    return refused(kind ?? { kind: "outside" });
  } catch (error) {
    await handle.close().catch(() => undefined);
    return refused({ kind: "unreadable", error });
  }
}

/**
 * Whether an open descriptor's file lies inside the root: on Linux by the real path of
 * `/proc/self/fd/<fd>`; elsewhere the real path of `path` must be inside and name the same device and inode
 * (`viaProc` false chooses that way on Linux too, for tests).
 */
export async function isOpenedInside(
  workspace: Workspace,
  handle: FileHandle,
  path: string,
  stats: Stats,
  viaProc = HAS_PROC_FD,
): Promise<boolean> {
  try {
    if (viaProc) return workspace.contains(await readlink(`/proc/self/fd/${handle.fd}`));
    const now = await realpath(path);
    if (!workspace.contains(now)) return false;
    const again = await stat(now);
    return again.dev === stats.dev && again.ino === stats.ino;
  } catch {
    return false;
  }
}

/** Reads an open file from its start, up to `maxBytes`; `undefined` when it holds more. */
export async function readUpTo(handle: FileHandle, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
  }
}

/** A whole regular file inside the root (as `openFileInside` checks it), unless it is over `maxBytes`. Never throws. */
export async function readFileInside(
  workspace: Workspace,
  real: string,
  maxBytes: number,
): Promise<
  { readonly kind: "read"; readonly bytes: Buffer } | { readonly kind: "large" } | (OpenOutcome & { kind: "refused" })
> {
  const opened = await openFileInside(workspace, real);
  if (opened.kind === "refused") return opened;
  try {
    if (opened.stats.size > maxBytes) return { kind: "large" };
    const bytes = await readUpTo(opened.handle, maxBytes);
    return bytes === undefined ? { kind: "large" } : { kind: "read", bytes };
  } catch (error) {
    return { kind: "refused", refusal: { kind: "unreadable", error } };
  } finally {
    await opened.handle.close();
  }
}

/** What `createFolderFileReader` gives: the bytes (a view valid until the next read), or why not. */
export type FolderFileRead =
  | { readonly kind: "read"; readonly bytes: Buffer }
  | { readonly kind: "large" }
  | { readonly kind: "refused"; readonly refusal: OpenRefusal };

/**
 * A reader of files met on a walk, named through their folder's open descriptor (`<pinned folder>/<name>`,
 * where the folder was opened without following a link and its real location checked): one open with
 * `O_NONBLOCK | O_NOFOLLOW` (so no link is followed and the file stays in that folder), one `fstat` on
 * the descriptor (anything but a regular file is closed unread), and usually one read into a buffer
 * reused from file to file. Synchronous: the caller gives the event loop turns between files. Files over
 * `maxBytes` are not read. Never throws.
 */
export function createFolderFileReader(maxBytes: number): (path: string) => FolderFileRead {
  let buffer = Buffer.allocUnsafe(64 * 1024);
  return (path) => {
    let fd: number;
    try {
      fd = openSync(path, READ_FLAGS);
    } catch (error) {
      return { kind: "refused", refusal: refusalOf(error) };
    }
    try {
      const stats = fstatSync(fd);
      const kind = kindOf(stats);
      if (kind !== undefined) return { kind: "refused", refusal: kind };
      if (stats.size > maxBytes) return { kind: "large" };
      let total = 0;
      for (;;) {
        if (total === buffer.length) {
          if (total > maxBytes) return { kind: "large" };
          const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
          buffer.copy(larger, 0, 0, total);
          buffer = larger;
        }
        const bytesRead = readSync(fd, buffer, total, buffer.length - total, total);
        total += bytesRead;
        // The size fstat gave is reached (a snapshot, as any reader sees), or the file ended sooner.
        if (bytesRead === 0 || (stats.size > 0 && total >= stats.size)) break;
      }
      return total > maxBytes ? { kind: "large" } : { kind: "read", bytes: buffer.subarray(0, total) };
    } catch (error) {
      return { kind: "refused", refusal: { kind: "unreadable", error } };
    } finally {
      try {
        closeSync(fd);
      } catch {
        // Nothing was written; a failed close loses nothing.
      }
    }
  };
}

/** What a non-regular file is, in words: "a named pipe (FIFO)", "a socket", "a character device", "a block device". */
export function describeSpecial(stats: Stats): string {
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function kindOf(stats: Stats): OpenRefusal | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return { kind: "folder" };
  if (stats.isSymbolicLink()) return { kind: "link" };
  return { kind: "special", what: describeSpecial(stats) };
}

function refusalOf(error: unknown): OpenRefusal {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
  // O_NOFOLLOW met a link where the guard saw none: the path changed under us.
  if (code === "ELOOP") return { kind: "link" };
  if (code === "EISDIR") return { kind: "folder" };
  return { kind: "unreadable", error };
}
