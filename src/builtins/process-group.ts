// Signalling a process group and telling whether it still has live members (zombies count as gone).
import { readdirSync, readFileSync } from "node:fs";

/** Sends a signal to every process of a group; false when the group no longer exists. */
function signalGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/**
 * Whether a process group still has a live (non-zombie) member. A zombie whose parent has not
 * reaped it still answers `kill(-pgid, 0)`, so on Linux the members are looked up in /proc.
 */
export function isGroupAlive(groupId: number): boolean {
  if (!signalGroup(groupId, 0)) return false;
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    // Synchronous on purpose: /proc is in memory, and a thread-pool hop per file is far slower under load.
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const state = processState(Number(entry));
    if (state !== undefined && state.groupId === groupId && state.state !== "Z" && state.state !== "X") return true;
  }
  return false;
}

/** A process's state letter and group id from /proc, or `undefined` when it is gone. */
export function processState(pid: number): { state: string; groupId: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", groupId: Number(fields[2]) };
}

/** Waits until the group has no live member or `ms` passed; true when it is gone. */
export async function waitForGroupExit(groupId: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    if (!isGroupAlive(groupId)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
  }
}
