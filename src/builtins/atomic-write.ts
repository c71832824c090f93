// Writing a file atomically inside the workspace: a temp file in the checked folder, flushed, then renamed over it.
import { randomBytes } from "node:crypto";
import { constants, promises as fs, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { OutsideWorkspaceError, openFolderInside } from "./folder-inside.js";
import type { Workspace } from "./workspace.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes `content` to `path` (a symlink-free path the guard resolved inside the root) through a temp
 * file in the same folder and a rename, so readers see the old file or the new one, never a part.
 * The folder is opened and checked first (see `openFolderInside`; missing folders are created when
 * `createFolders` is set) and, on Linux, the temp file is created and renamed through that open
 * folder, so a folder swapped for a link mid-call cannot send the write elsewhere. Keeps an existing
 * file's permission bits. On any failure the temp file and the folders it created are removed, the
 * old file is untouched, and the error is rethrown (`OutsideWorkspaceError` when the folder led out).
 */
export async function writeFileAtomic(
  workspace: Workspace,
  path: string,
  content: string | Uint8Array,
  options: { readonly signal?: AbortSignal; readonly createFolders?: boolean } = {},
): Promise<void> {
  const { signal } = options;
  signal?.throwIfAborted();
  const folder = await openFolderInside(workspace, dirname(path), { create: options.createFolders === true });
  const name = basename(path);
  const target = `${folder.path}/${name}`;
  // Short name: a long target name plus a suffix must not exceed the 255-byte name limit.
  const temp = `${folder.path}/.${name.slice(0, 32)}.${randomBytes(6).toString("hex")}.tmp`;
  let created = false;
  let done = false;
  try {
    let existing: Stats | undefined;
    try {
      existing = await fs.lstat(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const mode = existing?.isFile() === true ? existing.mode & 0o7777 : undefined;
    signal?.throwIfAborted();
    const handle: FileHandle = await fs.open(temp, CREATE_FLAGS, mode ?? 0o666);
    created = true;
    let written: Stats;
    try {
      await handle.writeFile(content, signal === undefined ? {} : { signal });
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
      written = await handle.stat();
    } finally {
      await handle.close();
    }
    signal?.throwIfAborted();
    await fs.rename(temp, target);
    created = false;
    if (!(await landedInside(workspace, folder.pinned, folder.stillInside, path, written))) {
      // The folder was moved out of the root during the call: take back what was written, if it was new.
      if (existing === undefined) await fs.rm(target, { force: true }).catch(() => undefined);
      throw new OutsideWorkspaceError("the folder was moved out of the workspace during the write");
    }
    done = true;
  } finally {
    if (created) await fs.rm(temp, { force: true }).catch(() => undefined);
    if (!done) await folder.removeCreated();
    await folder.close();
  }
}

/** After the rename: the file at `path` is the one written, and its folder is inside the root. */
async function landedInside(
  workspace: Workspace,
  pinned: boolean,
  folderInside: () => Promise<boolean>,
  path: string,
  written: Stats,
): Promise<boolean> {
  if (!(await folderInside())) return false;
  if (pinned) return true;
  try {
    const now = await fs.realpath(path);
    const named = await fs.stat(now);
    return workspace.contains(now) && named.dev === written.dev && named.ino === written.ino;
  } catch {
    return false;
  }
}
