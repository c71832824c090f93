// Writing a file atomically: a temp file beside it, flushed, then renamed over it; nothing half-written is left.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes `content` to `path` through a temp file in the same folder and a rename, so readers see the
 * old file or the new one, never a part. Keeps an existing file's permission bits. On any failure the
 * temp file is removed, the old file is untouched, and the error is rethrown.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  const folder = dirname(path);
  let mode: number | undefined;
  try {
    mode = (await fs.stat(path)).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // Short name: a long target name plus a suffix must not exceed the 255-byte name limit.
  const temp = join(folder, `.${basename(path).slice(0, 32)}.${randomBytes(6).toString("hex")}.tmp`);
  let created = false;
  try {
    signal?.throwIfAborted();
    const handle = await fs.open(temp, "wx", mode ?? 0o666);
    created = true;
    try {
      await handle.writeFile(content, signal === undefined ? {} : { signal });
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await fs.chmod(temp, mode);
    signal?.throwIfAborted();
    await fs.rename(temp, path);
    created = false;
  } finally {
    if (created) await fs.rm(temp, { force: true }).catch(() => undefined);
  }
}
