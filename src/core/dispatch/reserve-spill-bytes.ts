// The quota of saved results: bytes reserved per folder before they are written, shared by every session of the
// process.

/** What is counted against one results folder's quota: `used` is final once `counted` has settled. */
interface FolderCount {
  used: number;
  readonly counted: Promise<void>;
}

/** The count of each results folder used in this process, by its real path. */
const counts = new Map<string, FolderCount>();

/**
 * Reserves `bytes` of the quota of the results folder at `realPath`: true when they fit within `quota` with
 * everything counted there so far, and they are then counted; false, and nothing counted, when they do not.
 * On the folder's first use in this process its files are counted once with `countExisting`; afterwards the
 * count grows only by reservations (files removed meanwhile are not given back). The check and the count are
 * one step, so parallel calls cannot all pass it at once. Rejects when `countExisting` does (the next call counts
 * again).
 */
export async function reserveSpillBytes(
  realPath: string,
  bytes: number,
  quota: number,
  countExisting: () => Promise<number>,
): Promise<boolean> {
  let count = counts.get(realPath);
  if (count === undefined) {
    const made: FolderCount = {
      used: 0,
      counted: countExisting().then(
        (existing) => {
          made.used += existing;
        },
        (error: unknown) => {
          if (counts.get(realPath) === made) counts.delete(realPath);
          throw error;
        },
      ),
    };
    counts.set(realPath, made);
    count = made;
  }
  await count.counted;
  if (count.used + bytes > quota) return false;
  count.used += bytes;
  return true;
}

/** Gives back reserved bytes that were not written (a write that failed, or wrote less than reserved). */
export function releaseSpillBytes(realPath: string, bytes: number): void {
  const count = counts.get(realPath);
  if (count !== undefined) count.used = Math.max(0, count.used - bytes);
}

/** Forgets a folder's count: the folder was removed (a session's temporary folder). */
export function forgetSpillFolder(realPath: string): void {
  counts.delete(realPath);
}
