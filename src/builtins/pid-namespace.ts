// Running a command as the child of PID 1 of a new PID namespace (util-linux `unshare`), so nothing it starts can
// outlive it.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { findExecutable, isExecutable } from "../sandbox/find-executable.js";

/** How `bash` starts a command in its own PID namespace: the `unshare` binary and its arguments before `--`. */
interface PidNamespaceLauncher {
  readonly unshare: string;
  readonly flags: readonly string[];
  /** The bash that runs `PID_NAMESPACE_INIT` as the namespace's PID 1. */
  readonly initShell: string;
}

/**
 * The script PID 1 of the namespace runs, as `bash -c SCRIPT toolwire-bash COMMAND SHELL`, with fd 3 a
 * pipe it reports on and fd 4 a pipe from the host that nobody writes. It runs `SHELL -c COMMAND` as a
 * child (with fds 3 and 4 closed for it), waits for it, says `strays` on fd 3 when other processes of the
 * namespace are still alive (`kill -0 -1` reaches every process of the namespace but the caller), kills
 * them all, and exits with the command's status. On SIGTERM (PID 1 has a handler, so the host's signal
 * arrives) it passes SIGTERM to every process of the namespace and, once the command ended, waits for the
 * rest until the host kills it. A watcher reads fd 4: when the host process dies the pipe ends and it
 * kills everything, so the namespace does not outlive its host either.
 */
export const PID_NAMESPACE_INIT = buildNamespaceInit();

/**
 * The init script with `before` run ahead of the command (after the TERM trap and the watcher) and
 * `after` run once it ended (before the check for strays). Lines of bash; empty parts are left out.
 */
function buildNamespaceInit(hooks: { readonly before?: string; readonly after?: string } = {}): string {
  return [
    `trap 'stopping=1; kill -TERM -1 2>/dev/null' TERM`,
    `{ trap '' TERM; read -r -u 4 _; kill -KILL -1 2>/dev/null; } 3>&- &`,
    `watcher=$!`,
    hooks.before ?? "",
    `"$2" -c "$1" 2>&1 3>&- 4>&- &`,
    `child=$!`,
    `wait "$child"; status=$?`,
    `while kill -0 "$child" 2>/dev/null; do wait "$child"; status=$?; done`,
    `kill -KILL "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null`,
    hooks.after ?? "",
    `if kill -0 -1 2>/dev/null; then`,
    `  echo strays >&3`,
    `  while [ -n "$stopping" ] && kill -0 -1 2>/dev/null; do read -r -t 0.05 -u 4 _; [ $? -gt 128 ] || break; done`,
    `fi`,
    `kill -KILL -1 2>/dev/null`,
    `exit "$status"`,
    ``,
  ]
    .filter((line, index, lines) => line !== "" || index === lines.length - 1)
    .join("\n");
}

let detected: Promise<PidNamespaceLauncher | undefined> | undefined;

/**
 * The way to start commands in a new PID namespace on this machine, or `undefined` when there is none
 * (not Linux, no `unshare` or no bash, namespaces not allowed). Tried once per process (a few ms) and
 * remembered: as root `unshare --pid --fork --kill-child`, otherwise with `--user --map-current-user`;
 * with `--mount-proc` (so `ps` and `/proc` inside show the namespace's processes) when that works. Never rejects.
 */
export function detectPidNamespace(): Promise<PidNamespaceLauncher | undefined> {
  detected ??= probe().catch(() => undefined);
  return detected;
}

async function probe(): Promise<PidNamespaceLauncher | undefined> {
  if (process.platform !== "linux") return undefined;
  const unshare = findExecutable("unshare");
  const initShell = ["/bin/bash", "/usr/bin/bash"].find(isExecutable);
  if (unshare === undefined || initShell === undefined) return undefined;
  const base = [
    ...(process.getuid?.() === 0 ? [] : ["--user", "--map-current-user"]),
    "--pid",
    "--fork",
    "--kill-child",
  ];
  for (const flags of [[...base, "--mount-proc"], base]) {
    if (await runsTrue(unshare, flags, initShell)) return { unshare, flags, initShell };
  }
  return undefined;
}

function runsTrue(unshare: string, flags: readonly string[], initShell: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(unshare, [...flags, "--", initShell, "-c", "exit 0"], { stdio: "ignore", timeout: 5000 });
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0));
  });
}

/**
 * The host PID of the namespace's PID 1: the child of the `unshare` process. `undefined` when it has none (yet or any
 * more).
 */
export function findNamespaceInit(unsharePid: number): number | undefined {
  try {
    const children = readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8").trim();
    if (children !== "") return Number(children.split(" ")[0]);
    return undefined;
  } catch {
    // Kernels without CONFIG_PROC_CHILDREN: look for the process whose parent is unshare.
  }
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === unsharePid) return Number(entry);
      } catch {
        // Gone while scanning.
      }
    }
  } catch {
    // No /proc: nothing to find.
  }
  return undefined;
}

/**
 * The init script inside bubblewrap, run as `bash -c SCRIPT toolwire-bash COMMAND SHELL RLIMIT [BRIDGE...]`:
 * `PID_NAMESPACE_INIT` that first caps the process count with `ulimit -u RLIMIT` (when not empty) and starts
 * the proxy bridge (when given) and waits for its `ready`, saying `bridge-failed` on fd 3 and exiting 125
 * when it never comes; once the command ended the bridge is ended before the check for strays.
 */
export const SANDBOX_INIT = buildNamespaceInit({
  before: [
    `[ -z "$3" ] || ulimit -u "$3" 2>/dev/null`,
    `if [ $# -gt 3 ]; then`,
    `  exec 5< <(exec "\${@:4}" 3>&- 4>&-)`,
    `  helper=$!`,
    `  if ! read -r -u 5 _; then echo bridge-failed >&3; kill -KILL -1 2>/dev/null; exit 125; fi`,
    `  exec 5<&-`,
    `fi`,
  ].join("\n"),
  after: `[ -z "$helper" ] || { kill -KILL "$helper" 2>/dev/null; wait "$helper" 2>/dev/null; }`,
});
