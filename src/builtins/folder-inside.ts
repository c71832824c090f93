// Opening a folder inside the workspace so that what is then read or written there stays inside, even if paths change.
import { closeSync, constants, type Dirent, openSync, readdirSync, readlinkSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath, rmdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { HAS_PROC_FD } from "./open-inside.js";
import type { Workspace } from "./workspace.js";

const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Thrown when a folder is, or became during the call, something that leads outside the root. */
export class OutsideWorkspaceError extends Error {
  readonly code = "EOUTSIDE";
}

/** An open folder inside the root. */
interface FolderInside {
  /**
   * A path naming the opened folder itself, whatever happens to its names afterwards: `/proc/self/fd/<fd>`
   * on Linux (names joined under it resolve in that very folder); elsewhere its real path.
   */
  readonly path: string;
  /** Whether `path` is pinned to the open folder (Linux) rather than a name that could change. */
  readonly pinned: boolean;
  /** Whether the open folder still lies inside the root (it may have been moved out since). */
  stillInside(): Promise<boolean>;
  /** Removes the folders this call created, deepest first, stopping at one that is not empty. */
  removeCreated(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `realFolder` (a symlink-free path the guard resolved inside the root). On Linux it walks
 * from the root one name at a time with `O_NOFOLLOW`, so no link is ever followed, creating missing
 * folders when `create` is set; elsewhere it opens the path and compares device and inode with its
 * real path (`viaProc` false chooses that way on Linux too, for tests). Throws `OutsideWorkspaceError`
 * when a part is (now) a link or the folder is outside the root, and the file-system error (ENOENT,
 * ENOTDIR, EACCES...) otherwise.
 */
export async function openFolderInside(
  workspace: Workspace,
  realFolder: string,
  options: { readonly create?: boolean; readonly viaProc?: boolean } = {},
): Promise<FolderInside> {
  if (!workspace.contains(realFolder)) throw new OutsideWorkspaceError("the folder is outside the workspace");
  return (options.viaProc ?? HAS_PROC_FD)
    ? openPinned(workspace, realFolder, options.create === true)
    : openByPath(workspace, realFolder, options.create === true);
}

/**
 * The entries of a folder inside the root, read through an opened descriptor whose real location was
 * checked. Throws `OutsideWorkspaceError` when it is (now) outside, and the file-system error otherwise.
 */
export async function readFolderInside(workspace: Workspace, realFolder: string): Promise<Dirent[]> {
  if (!HAS_PROC_FD) {
    const folder = await openFolderInside(workspace, realFolder);
    try {
      return await readdir(folder.path, { withFileTypes: true });
    } finally {
      await folder.close();
    }
  }
  // Reading needs no walk from the root: where the opened folder really is settles it (one open per folder).
  let handle: FileHandle;
  try {
    handle = await open(realFolder, FOLDER_FLAGS);
  } catch (error) {
    if ((await lstat(realFolder).catch(() => undefined))?.isSymbolicLink() === true) {
      throw new OutsideWorkspaceError("the folder was replaced by a symbolic link");
    }
    throw error;
  }
  try {
    const path = `/proc/self/fd/${handle.fd}`;
    if (!workspace.contains(await readlink(path)))
      throw new OutsideWorkspaceError("the folder is outside the workspace");
    return await readdir(path, { withFileTypes: true });
  } finally {
    await handle.close();
  }
}

/** A folder opened for a walk (Linux): its entries, and a path naming the open folder itself until `close`. */
interface ListedFolder {
  readonly entries: Dirent[];
  /** `/proc/self/fd/<fd>`: names joined under it resolve in this very folder, whatever happens to its names. */
  readonly pinned: string;
  close(): void;
}

/**
 * Opens a folder for a walk and lists it (Linux only: needs `/proc/self/fd`). `path` is a real path
 * inside the root, or a name under an already listed folder's `pinned` path. Opened with `O_NOFOLLOW`,
 * so a link at its last name is refused (ELOOP), then its real location is checked: a folder outside
 * the root throws `OutsideWorkspaceError`. Synchronous (three system calls and a listing); the caller
 * closes it, and gives the event loop turns.
 */
export function listFolderPinned(workspace: Workspace, path: string): ListedFolder {
  const fd = openSync(path, FOLDER_FLAGS);
  try {
    const pinned = `/proc/self/fd/${fd}`;
    if (!workspace.contains(readlinkSync(pinned))) {
      throw new OutsideWorkspaceError("the folder is outside the workspace");
    }
    const entries = readdirSync(pinned, { withFileTypes: true });
    return { entries, pinned, close: () => closeSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

async function openPinned(workspace: Workspace, realFolder: string, create: boolean): Promise<FolderInside> {
  const names = relative(workspace.realRoot, realFolder)
    .split(sep)
    .filter((name) => name !== "");
  const handles: FileHandle[] = [];
  const created: string[] = [];
  const closeAll = async () => {
    for (const handle of handles.splice(0).reverse()) await handle.close().catch(() => undefined);
  };
  const removeCreated = async () => {
    for (const path of [...created].reverse()) {
      try {
        await rmdir(path);
      } catch {
        return;
      }
    }
  };
  try {
    handles.push(await open(workspace.realRoot, FOLDER_FLAGS));
    for (const name of names) {
      const parent = `/proc/self/fd/${(handles[handles.length - 1] as FileHandle).fd}`;
      const child = `${parent}/${name}`;
      let handle: FileHandle;
      try {
        handle = await open(child, FOLDER_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" && create) {
          await mkdir(child);
          created.push(child);
          handle = await open(child, FOLDER_FLAGS);
        } else if (code === "ENOTDIR" || code === "ELOOP") {
          if ((await lstat(child).catch(() => undefined))?.isSymbolicLink() === true) {
            throw new OutsideWorkspaceError("a folder on the path was replaced by a symbolic link");
          }
          throw error;
        } else {
          throw error;
        }
      }
      handles.push(handle);
    }
    const last = handles[handles.length - 1] as FileHandle;
    const path = `/proc/self/fd/${last.fd}`;
    const stillInside = async () => workspace.contains(await readlink(path).catch(() => ""));
    if (!(await stillInside())) throw new OutsideWorkspaceError("the folder is no longer inside the workspace");
    return { path, pinned: true, stillInside, removeCreated, close: closeAll };
  } catch (error) {
    await removeCreated();
    await closeAll();
    throw error;
  }
}

async function openByPath(workspace: Workspace, realFolder: string, create: boolean): Promise<FolderInside> {
  // Without openat, create one name at a time, refusing a link met on the way (never mkdir -p through one).
  const created: string[] = [];
  const removeCreated = async () => {
    for (const folder of created.splice(0).reverse()) {
      try {
        await rmdir(folder);
      } catch {
        return;
      }
    }
  };
  let handle: FileHandle;
  try {
    let current = workspace.realRoot;
    for (const name of relative(workspace.realRoot, realFolder).split(sep)) {
      if (name === "") continue;
      current = join(current, name);
      const found = await lstat(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" && create) return undefined;
        throw error;
      });
      if (found?.isSymbolicLink() === true) {
        throw new OutsideWorkspaceError("a folder on the path was replaced by a symbolic link");
      }
      if (found === undefined) {
        await mkdir(current);
        created.push(current);
      }
    }
    handle = await open(realFolder, FOLDER_FLAGS);
  } catch (error) {
    await removeCreated();
    throw error;
  }
  const stillInside = async () => {
    try {
      const now = await realpath(realFolder);
      const [opened, named] = await Promise.all([handle.stat(), stat(now)]);
      return workspace.contains(now) && opened.dev === named.dev && opened.ino === named.ino;
    } catch {
      return false;
    }
  };
  if (!(await stillInside())) {
    await handle.close();
    await removeCreated();
    throw new OutsideWorkspaceError("the folder is no longer inside the workspace");
  }
  return { path: realFolder, pinned: false, stillInside, removeCreated, close: () => handle.close() };
}
