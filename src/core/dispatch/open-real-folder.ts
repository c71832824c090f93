// Opening (or making) a folder under a root one name at a time, never through a link, and creating new files in it.
import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath, unlink } from "node:fs/promises";
import { join } from "node:path";

const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
// O_EXCL: a name already taken (a file, a planted link, dangling or not) fails with EEXIST and is never opened.
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Whether `/proc/self/fd` names what a descriptor is open on (Linux). */
const HAS_PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

/** Thrown when a name on the way is not a real folder, or a file did not land where it was asked to. */
export class NotARealFolderError extends Error {
  readonly code = "not-a-real-folder";
}

/** An open folder under a root, reached without following a link. */
export interface RealFolder {
  /** Its real path: the root's real path and the names. */
  readonly realPath: string;
  /** Whether this call made it (it was missing). */
  readonly made: boolean;
  /**
   * Creates the new file `name` in it (write only, `mode`), and checks where the open file really is: exactly
   * `realPath/name`, else it is removed and `NotARealFolderError` thrown. Throws EEXIST when the name is taken.
   */
  createFile(name: string, mode: number): Promise<FileHandle>;
  /** Removes the file `name` from it; no error when it is gone. */
  removeFile(name: string): Promise<void>;
  /** The bytes its regular files hold (links and folders in it are not counted, nor followed). */
  sizeOfFiles(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens `<root>/<names...>`, making the folders that are missing. `root` is trusted (a link in its own path is
 * followed); below it no link is ever followed: on Linux each name is opened with `O_NOFOLLOW` inside the folder
 * opened before it (through `/proc/self/fd`), so a folder swapped for a link between two steps is refused too;
 * elsewhere each name is checked with `lstat` (`viaProc` false chooses that way on Linux too, for tests). Throws
 * `NotARealFolderError` when a name is a link or not a folder (its message names it relative to the root, never
 * where a link points), and the file-system error otherwise.
 */
export async function openRealFolder(
  root: string,
  names: readonly string[],
  options: { readonly viaProc?: boolean } = {},
): Promise<RealFolder> {
  const realRoot = await realpath(root);
  return (options.viaProc ?? HAS_PROC_FD) ? openPinned(realRoot, names) : openByPath(realRoot, names);
}

async function openPinned(realRoot: string, names: readonly string[]): Promise<RealFolder> {
  let handle = await open(realRoot, FOLDER_FLAGS);
  let made = false;
  try {
    for (let index = 0; index < names.length; index++) {
      const child = `/proc/self/fd/${handle.fd}/${names[index]}`;
      made = false;
      const opened = await openFolder(child).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
        made = await makeFolder(child);
        return openFolder(child);
      });
      if (typeof opened === "string") throw new NotARealFolderError(`${shownName(names, index)} ${opened}`);
      await handle.close();
      handle = opened;
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  const folder = handle;
  const realPath = join(realRoot, ...names);
  const inFolder = (name: string) => `/proc/self/fd/${folder.fd}/${name}`;
  return {
    realPath,
    made,
    async createFile(name, mode) {
      const file = await open(inFolder(name), CREATE_FLAGS, mode);
      // The folder may have been moved (inside the root) since it was opened: the path told must be where it is.
      const where = await readlink(`/proc/self/fd/${file.fd}`).catch(() => "");
      if (where !== join(realPath, name)) await refuseFile(file, inFolder(name));
      return file;
    },
    removeFile: (name) => unlink(inFolder(name)).catch(() => undefined),
    sizeOfFiles: () => sizeOfFiles(inFolder("")),
    close: () => folder.close(),
  };
}

/** Makes the folder `path`; false when it was made meanwhile (by another call), true when this call made it. */
async function makeFolder(path: string): Promise<boolean> {
  try {
    await mkdir(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Opens a folder by `path` without following a link at its end; a string says what stands there instead. */
async function openFolder(path: string): Promise<FileHandle | string> {
  try {
    return await open(path, FOLDER_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ELOOP" && code !== "ENOTDIR") throw error;
    return (await lstat(path).catch(() => undefined))?.isSymbolicLink() === true
      ? "is a symbolic link"
      : "is not a folder";
  }
}

async function openByPath(realRoot: string, names: readonly string[]): Promise<RealFolder> {
  // Without openat: check each name with lstat; a name swapped for a link after its check is caught after the open.
  let realPath = realRoot;
  let made = false;
  for (let index = 0; index < names.length; index++) {
    realPath = join(realPath, names[index] as string);
    let found = await lstat(realPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    made = found === undefined && (await makeFolder(realPath));
    found ??= await lstat(realPath);
    if (!found.isDirectory()) {
      const what = found.isSymbolicLink() ? "is a symbolic link" : "is not a folder";
      throw new NotARealFolderError(`${shownName(names, index)} ${what}`);
    }
  }
  const folder = realPath;
  return {
    realPath,
    made,
    async createFile(name, mode) {
      const path = join(folder, name);
      const file = await open(path, CREATE_FLAGS, mode);
      if (!(await landedAt(file, folder, path))) await refuseFile(file, await whereLanded(file, folder, name));
      return file;
    },
    removeFile: (name) => unlink(join(folder, name)).catch(() => undefined),
    sizeOfFiles: () => sizeOfFiles(folder),
    close: async () => {},
  };
}

/** Whether the open file is the one at `path`, in a folder whose real path is still `folder`. */
async function landedAt(file: FileHandle, folder: string, path: string): Promise<boolean> {
  try {
    if ((await realpath(folder)) !== folder) return false;
    const [opened, named] = await Promise.all([file.stat(), lstat(path)]);
    return named.isFile() && opened.dev === named.dev && opened.ino === named.ino;
  } catch {
    return false;
  }
}

/**
 * Where the file was made when a name on the way was swapped for a link: the same file under the folder's real path
 * now.
 */
async function whereLanded(file: FileHandle, folder: string, name: string): Promise<string | undefined> {
  try {
    const path = join(await realpath(folder), name);
    const [opened, named] = await Promise.all([file.stat(), lstat(path)]);
    return opened.dev === named.dev && opened.ino === named.ino ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Closes a file that did not land where it was asked to, removes it when its name is known, and throws. */
async function refuseFile(file: FileHandle, path: string | undefined): Promise<never> {
  await file.close().catch(() => undefined);
  if (path !== undefined) await unlink(path).catch(() => undefined);
  throw new NotARealFolderError("the folder was moved or replaced while the file was made");
}

async function sizeOfFiles(folder: string): Promise<number> {
  let bytes = 0;
  for (const name of await readdir(folder)) {
    const stats = await lstat(join(folder, name)).catch(() => undefined);
    if (stats?.isFile() === true) bytes += stats.size;
  }
  return bytes;
}

/** The names up to `index`, joined with `/`: how a note names a part of the path, relative to the root. */
function shownName(names: readonly string[], index: number): string {
  return names.slice(0, index + 1).join("/");
}
