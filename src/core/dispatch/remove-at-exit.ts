// Temporary folders removed when the process exits, unless removed before: one exit listener for them all.
import { rmSync } from "node:fs";

/** The folders still to remove at exit. */
const live = new Set<string>();
let listening = false;

/**
 * Removes `folder` and all it holds when the process exits normally (an `exit` event: not on a signal that kills
 * it, nor a crash of Node itself), unless the function returned removes it first. That function removes it at
 * once, synchronously, and never throws; calling it again does nothing.
 */
export function removeAtExit(folder: string): () => void {
  live.add(folder);
  if (!listening) {
    listening = true;
    process.on("exit", () => {
      for (const left of live) removeQuietly(left);
    });
  }
  return () => {
    if (live.delete(folder)) removeQuietly(folder);
  };
}

function removeQuietly(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // Nothing to do at exit about a folder that cannot be removed.
  }
}
