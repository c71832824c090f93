// A pids cgroup per sandboxed command: the kernel's own cap on how many processes it may run, which also binds root.
import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** One command's cgroup: write the command's PID to `procsFile` before it forks; `remove()` once it ended. */
export interface PidsCgroup {
  readonly procsFile: string;
  remove(): Promise<void>;
}

const PREFIX = "toolwire-";
let counter = 0;

/**
 * The cgroup folder under which this process may create child cgroups with a `pids.max`, or `undefined`
 * (no pids controller, or cgroupfs read-only or not ours, as in most unprivileged containers). Tries cgroup v1's
 * `pids` hierarchy, then cgroup v2, by creating and removing a probe cgroup. Removes empty cgroups left by
 * toolwire processes that are gone. Never throws.
 */
export async function findPidsCgroupParent(): Promise<string | undefined> {
  if (process.platform !== "linux") return undefined;
  let lines: string[];
  try {
    lines = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  } catch {
    return undefined;
  }
  const candidates: string[] = [];
  for (const line of lines) {
    const [, controllers, path] = line.split(":", 3) as [string, string | undefined, string | undefined];
    if (path === undefined) continue;
    if (controllers?.split(",").includes("pids")) candidates.push(join("/sys/fs/cgroup/pids", path));
    if (controllers === "") {
      const mount = cgroup2Mount();
      if (mount !== undefined) candidates.push(join(mount, path));
    }
  }
  for (const parent of candidates) {
    if (await canLimit(parent)) {
      removeStale(parent);
      return parent;
    }
  }
  return undefined;
}

/** Creates a child cgroup of `parent` allowing at most `maxProcesses` tasks. Rejects when the kernel refuses. */
export async function createPidsCgroup(parent: string, maxProcesses: number): Promise<PidsCgroup> {
  const dir = join(parent, `${PREFIX}${process.pid}-${++counter}`);
  await mkdir(dir);
  try {
    await writeFile(join(dir, "pids.max"), String(maxProcesses));
  } catch (error) {
    await rmdir(dir).catch(() => undefined);
    throw error;
  }
  return {
    procsFile: join(dir, "cgroup.procs"),
    async remove() {
      // The namespace's last processes may still be exiting: a cgroup with members cannot be removed yet.
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          await rmdir(dir);
          return;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT") return;
          if (code !== "EBUSY") return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
  };
}

async function canLimit(parent: string): Promise<boolean> {
  if (!existsSync(parent)) return false;
  const probe = join(parent, `${PREFIX}probe-${process.pid}-${++counter}`);
  try {
    await mkdir(probe);
  } catch {
    return false;
  }
  try {
    if (!existsSync(join(probe, "pids.max"))) {
      // cgroup v2: the controller must be enabled for the children first.
      await writeFile(join(parent, "cgroup.subtree_control"), "+pids").catch(() => undefined);
    }
    return existsSync(join(probe, "pids.max"));
  } finally {
    await rmdir(probe).catch(() => undefined);
  }
}

function cgroup2Mount(): string | undefined {
  try {
    for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
      const [before, after] = line.split(" - ");
      if (after?.startsWith("cgroup2 ")) return before?.split(" ")[4];
    }
  } catch {
    // No mountinfo: no cgroup v2 that we can find.
  }
  return undefined;
}

/** Removes the empty cgroups of toolwire processes that no longer exist (left by a crash). */
function removeStale(parent: string): void {
  try {
    for (const entry of readdirSync(parent)) {
      const pid = /^toolwire-(?:probe-)?(\d+)-\d+$/.exec(entry)?.[1];
      if (pid === undefined || existsSync(`/proc/${pid}`)) continue;
      try {
        rmdirSync(join(parent, entry));
      } catch {
        // Still has members, or not ours: leave it.
      }
    }
  } catch {
    // Unreadable: nothing to clean.
  }
}
