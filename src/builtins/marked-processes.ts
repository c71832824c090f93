// Finding and ending the processes that carry a call's marker variable in their environment (Linux /proc).
import { readdirSync, readFileSync } from "node:fs";
import { processState } from "./process-group.js";

/** The environment variable `bash` sets to a random id per call when it cannot use a PID namespace. */
export const CALL_MARKER_VARIABLE = "TOOLWIRE_CALL";

/**
 * The live processes whose environment, as /proc shows it, holds `TOOLWIRE_CALL=<id>`. Only the
 * environment a process was started with is visible, and only for processes this user may read;
 * a process started with a cleared environment (`env -i`) no longer carries the marker.
 */
export function findMarkedProcesses(id: string): number[] {
  if (process.platform !== "linux") return [];
  const needle = Buffer.from(`${CALL_MARKER_VARIABLE}=${id}\0`);
  const inner = Buffer.concat([Buffer.from([0]), needle]);
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      // Synchronous on purpose: /proc is in memory, and this runs once per call, after the command.
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue;
    }
    if (!(environ.subarray(0, needle.length).equals(needle) || environ.includes(inner))) continue;
    const state = processState(pid)?.state;
    if (state !== undefined && state !== "Z" && state !== "X") found.push(pid);
  }
  return found;
}

/** Sends `signal` to every marked process; returns how many there were. Never throws. */
export function signalMarkedProcesses(id: string, signal: NodeJS.Signals): number {
  const pids = findMarkedProcesses(id);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already, or not ours to signal.
    }
  }
  return pids.length;
}

/**
 * SIGKILLs the marked processes and scans again until none is left (a process may start another while
 * dying), at most `rounds` times. Returns whether any was found and whether any is still alive.
 */
export async function killMarkedProcesses(id: string, rounds = 20): Promise<{ found: boolean; remaining: boolean }> {
  let found = false;
  for (let round = 0; round < rounds; round++) {
    if (signalMarkedProcesses(id, "SIGKILL") === 0) return { found, remaining: false };
    found = true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { found, remaining: findMarkedProcesses(id).length > 0 };
}
