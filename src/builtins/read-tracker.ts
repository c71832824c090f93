// What the `read` tool showed, per workspace, so `edit` can refuse a file that changed since.
import { createHash } from "node:crypto";

/** A file's state when a tool last read or wrote it. */
interface FileSnapshot {
  readonly size: number;
  readonly sha256: string;
}

/** The files one set of built-in tools has read or written, by real path. */
export interface ReadTracker {
  /** Records the state of a file a tool showed or wrote. */
  remember(realPath: string, snapshot: FileSnapshot): void;
  /** The snapshot last recorded for a path, if any. */
  recall(realPath: string): FileSnapshot | undefined;
  /** Whether a file now differs from the snapshot recorded for it (false when none is recorded). */
  changedSince(realPath: string, now: FileSnapshot): boolean;
}

/** A fresh tracker; each `createBuiltinTools` call has its own. */
export function createReadTracker(): ReadTracker {
  const snapshots = new Map<string, FileSnapshot>();
  return {
    remember(realPath, snapshot) {
      snapshots.set(realPath, snapshot);
    },
    recall(realPath) {
      return snapshots.get(realPath);
    },
    changedSince(realPath, now) {
      const snapshot = snapshots.get(realPath);
      if (snapshot === undefined) return false;
      return snapshot.size !== now.size || snapshot.sha256 !== now.sha256;
    },
  };
}

/** The snapshot of whole file contents. */
export function snapshotOf(content: Uint8Array): FileSnapshot {
  return { size: content.length, sha256: createHash("sha256").update(content).digest("hex") };
}
