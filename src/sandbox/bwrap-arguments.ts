// The bubblewrap command line for one sandboxed command: what is mounted where, which namespaces are new.
import { statSync } from "node:fs";
import type { ResolvedSandbox } from "./sandbox-options.js";

/** Where the filtering proxy's folder (holding its Unix socket) appears inside the sandbox. */
export const PROXY_INNER_DIR = "/tmp/.toolwire-proxy";
/** The proxy socket's name in that folder. */
export const PROXY_SOCKET_NAME = "proxy.sock";

/**
 * bwrap's arguments up to and including `--`, in the order bwrap applies them (later mounts cover
 * earlier ones): the host read-only, a fresh /dev and /proc, a private /tmp (and /dev/shm) of at most
 * `tmpSizeBytes`, /proc/sys and the other kernel knobs of /proc read-only, the root and `writable` writable, `readOnly`
 * read-only again, `denyRead` hidden (an empty read-only folder over a folder, /dev/null over a file; never one that
 * holds the root), the proxy folder when there is one; new PID, IPC, UTS and (unless the network is on) network
 * namespaces; `--die-with-parent`, `--new-session`, and the command as PID 1 (`--as-pid-1`, unless `asPid1: false`:
 * toolwire's init script reaps and ends everything; without it bwrap's own init does, and ends the namespace when the
 * command exits). Paths that do not exist now are left out (they are looked up on every call).
 */
export function buildBwrapArguments(
  sandbox: ResolvedSandbox,
  options: { readonly tmpSizeLimit: boolean; readonly proxyDir?: string; readonly asPid1?: boolean },
): string[] {
  const size = options.tmpSizeLimit ? ["--size", String(sandbox.tmpSizeBytes)] : [];
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  // uid 0 without capabilities still owns the sysctls: kernel.core_pattern, a pipe to a program the host's root
  // runs, would be writable. The new /proc's kernel knobs are made read-only.
  args.push("--ro-bind", "/proc/sys", "/proc/sys");
  for (const path of PROC_KNOBS) args.push("--ro-bind-try", path, path);
  args.push(...size, "--tmpfs", "/tmp", ...size, "--tmpfs", "/dev/shm");
  args.push("--bind", sandbox.root, sandbox.root);
  for (const path of sandbox.writable) if (kindOf(path) !== undefined) args.push("--bind", path, path);
  for (const path of sandbox.readOnly) if (kindOf(path) !== undefined) args.push("--ro-bind", path, path);
  for (const path of sandbox.denyRead) {
    // A denied folder that holds the root would hide the root itself: the root was given, so it wins.
    if (sandbox.root === path || sandbox.root.startsWith(path.endsWith("/") ? path : `${path}/`)) continue;
    const kind = kindOf(path);
    if (kind === "folder") args.push("--tmpfs", path, "--remount-ro", path);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
  }
  if (options.proxyDir !== undefined) args.push("--ro-bind", options.proxyDir, PROXY_INNER_DIR);
  // As root bwrap keeps every capability unless told: with CAP_SYS_ADMIN a command could remount / writable.
  args.push("--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts");
  if (sandbox.network.kind !== "on") args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session", ...(options.asPid1 === false ? [] : ["--as-pid-1"]));
  args.push("--chdir", sandbox.root, "--");
  return args;
}

/** Writable parts of a fresh /proc, besides /proc/sys, that a command has no business changing. */
const PROC_KNOBS = ["/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/mtrr", "/proc/pressure"];

function kindOf(path: string): "folder" | "file" | undefined {
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return undefined;
  }
}
