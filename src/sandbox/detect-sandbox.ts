// Whether bubblewrap can sandbox commands on this machine: tried once, cheaply, by running it, and remembered.
import { spawn } from "node:child_process";

import { findExecutable, isExecutable } from "./find-executable.js";
import { findPidsCgroupParent } from "./pids-cgroup.js";

/** How a sandboxed command's process count is capped: a pids cgroup, RLIMIT_NPROC in its own user namespace, or not at all. */
export type SandboxProcessLimit =
  | { readonly kind: "cgroup"; readonly parent: string }
  | { readonly kind: "rlimit" }
  | { readonly kind: "none" };

/** What `detectSandbox` found. */
export type SandboxSupport =
  | {
      readonly usable: true;
      /** The bwrap binary. */
      readonly bwrap: string;
      /** Such as `bubblewrap 0.8.0`. */
      readonly version: string;
      /** The bash that runs as PID 1 inside. */
      readonly initShell: string;
      readonly processLimit: SandboxProcessLimit;
      /** bwrap takes `--size` for tmpfs mounts (0.5.0 and later). */
      readonly tmpSizeLimit: boolean;
    }
  | {
      readonly usable: false;
      /** Why not, in a sentence: no bwrap, not Linux, namespaces refused (with bwrap's own message). */
      readonly reason: string;
    };

/** Set to a bwrap path in this process's environment to use that one (`none` to act as if it were missing). */
export const BWRAP_VARIABLE = "TOOLWIRE_BWRAP";

const detected = new Map<string, Promise<SandboxSupport>>();

/**
 * Finds out, once per bwrap path and process, whether bubblewrap can start a sandbox here: runs
 * `bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-pid --unshare-net ... bash -c "exit 0"`
 * (about 10 ms), asks its version, and looks for a pids cgroup to cap process counts with. The bwrap
 * is `$TOOLWIRE_BWRAP`, else the first on `PATH`, else `/usr/bin/bwrap`. Never rejects.
 */
export function detectSandbox(): Promise<SandboxSupport> {
  const chosen = process.env[BWRAP_VARIABLE];
  const key = chosen ?? "";
  let support = detected.get(key);
  if (support === undefined) {
    support = probe(chosen).catch((error: unknown) => ({
      usable: false as const,
      reason: `probing bubblewrap failed: ${(error as Error).message}`,
    }));
    detected.set(key, support);
  }
  return support;
}

async function probe(chosen: string | undefined): Promise<SandboxSupport> {
  if (process.platform !== "linux")
    return { usable: false, reason: `bubblewrap needs Linux, this is ${process.platform}` };
  if (chosen === "none") return { usable: false, reason: `bubblewrap is turned off here (${BWRAP_VARIABLE}=none)` };
  const bwrap = chosen ?? findExecutable("bwrap");
  if (bwrap === undefined) return { usable: false, reason: "bubblewrap is not installed (no bwrap on PATH)" };
  if (!isExecutable(bwrap)) return { usable: false, reason: `${bwrap} is not an executable file` };
  const initShell = ["/bin/bash", "/usr/bin/bash"].find(isExecutable);
  if (initShell === undefined) return { usable: false, reason: "no bash at /bin/bash or /usr/bin/bash" };
  const base = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  const rest = [
    "--tmpfs",
    "/tmp",
    "--unshare-pid",
    "--unshare-net",
    "--die-with-parent",
    "--new-session",
    "--as-pid-1",
  ];
  const command = ["--", initShell, "-c", "exit 0"];
  const [sized, version, cgroup] = await Promise.all([
    run(bwrap, [...base, "--size", "1048576", ...rest, ...command]),
    run(bwrap, ["--version"]),
    findPidsCgroupParent(),
  ]);
  let tmpSizeLimit = true;
  let outcome = sized;
  if (outcome.code !== 0) {
    tmpSizeLimit = false;
    outcome = await run(bwrap, [...base, ...rest, ...command]);
  }
  if (outcome.code !== 0) {
    const said = outcome.output.trim().split("\n")[0] ?? "";
    return {
      usable: false,
      reason: `${bwrap} could not start a sandbox (${said === "" ? `exit code ${outcome.code}` : said}); user namespaces may be turned off on this machine or in this container`,
    };
  }
  const processLimit: SandboxProcessLimit =
    cgroup !== undefined
      ? { kind: "cgroup", parent: cgroup }
      : process.getuid?.() === 0
        ? { kind: "none" }
        : { kind: "rlimit" };
  return {
    usable: true,
    bwrap,
    version: version.code === 0 && version.output.trim() !== "" ? version.output.trim() : "bubblewrap",
    initShell,
    processLimit,
    tmpSizeLimit,
  };
}

function run(file: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], timeout: 5000 });
    const collect = (chunk: Buffer) => {
      if (output.length < 4096) output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", (error) => resolve({ code: null, output: error.message }));
    child.once("close", (code) => resolve({ code, output }));
  });
}
