// A process that joins a fresh pids cgroup ahead of time, then becomes the sandboxed command: moving a process
// into a cgroup costs about 12 ms here (cgroup v1 waits for an RCU grace period), so it is paid between calls.
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";

/**
 * Run as `bash -c CGROUP_STUB_SCRIPT toolwire-stub PROCS_FILE` with fd 5 a pipe: joins the cgroup, reads from
 * fd 5 (NUL-terminated) a count and that many `NAME=value` pairs, a count and that many arguments, then
 * `exec env -i PAIRS... ARGUMENTS...`. When fd 5 ends first (toolwire went away) it exits 98.
 */
const CGROUP_STUB_SCRIPT = [
  `echo $$ > "$1" || exit 97`,
  `envs=(); args=()`,
  `IFS= read -r -d '' -u 5 count || exit 98`,
  `for ((i = 0; i < count; i++)); do IFS= read -r -d '' -u 5 pair || exit 98; envs+=("$pair"); done`,
  `IFS= read -r -d '' -u 5 count || exit 98`,
  `for ((i = 0; i < count; i++)); do IFS= read -r -d '' -u 5 arg || exit 98; args+=("$arg"); done`,
  `exec 5<&-`,
  `exec env -i "\${envs[@]}" "\${args[@]}"`,
].join("\n");

/** A waiting stub in its own cgroup. */
export interface CgroupStub {
  readonly cgroup: PidsCgroup;
  /** Whether it is still waiting (a stub that died cannot be used). */
  alive(): boolean;
  /**
   * Makes the stub become `file args...` with exactly `env`, and hands its process over: stdio 1 and 2
   * and fds 3 and 4 are pipes (fd 0 is /dev/null), it leads its own process group. Call once.
   */
  exec(file: string, args: readonly string[], env: Readonly<Record<string, string>>): ChildProcess;
}

/**
 * Creates a cgroup under `parent` and starts a stub (with `shell`, a bash) that joins it and waits. The stub
 * does not keep this process alive, and it exits when this process does. Rejects when the cgroup cannot be made.
 */
export async function spawnCgroupStub(parent: string, shell: string, maxProcesses: number): Promise<CgroupStub> {
  const cgroup = await createPidsCgroup(parent, maxProcesses);
  let child: ChildProcess;
  try {
    child = spawn(shell, ["-c", CGROUP_STUB_SCRIPT, "toolwire-stub", cgroup.procsFile], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe", "pipe"],
      env: { PATH: "/usr/bin:/bin" },
    });
  } catch (error) {
    await cgroup.remove();
    throw error;
  }
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  // Until exec, an 'error' (spawn failure) would otherwise crash the host.
  child.on("error", () => {
    exited = true;
  });
  child.unref();
  for (const stream of child.stdio) (stream as (Readable & { unref?: () => void }) | null)?.unref?.();
  return {
    cgroup,
    alive: () => !exited && child.exitCode === null && child.signalCode === null,
    exec(file, args, env) {
      child.ref();
      for (const stream of child.stdio) (stream as (Readable & { ref?: () => void }) | null)?.ref?.();
      const pairs = Object.entries(env).map(([name, value]) => `${name}=${value}`);
      const message = [String(pairs.length), ...pairs, String(args.length + 1), file, ...args].map(
        (part) => `${part}\0`,
      );
      ((child.stdio as unknown[])[5] as Writable).end(message.join(""));
      return child;
    },
  };
}
