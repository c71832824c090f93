// Whether bubblewrap can sandbox commands on this machine: tried once, cheaply, by running it, and remembered.
import { spawn, spawnSync } from "node:child_process";

import { findExecutable, isExecutable } from "./find-executable.js";
import { findPidsCgroupParent } from "./pids-cgroup.js";

/**
 * How a sandboxed command's process count is capped: a pids cgroup, RLIMIT_NPROC in its own user namespace, or not at
 * all.
 */
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

/** Whether bubblewrap can start a sandbox here, without the details `detectSandbox` also finds. */
type SandboxUsability = { readonly usable: true } | { readonly usable: false; readonly reason: string };

const detected = new Map<string, Promise<SandboxSupport>>();
/** The answers known now, by bwrap path: `detectSandbox`'s once settled, and `checkSandboxNow`'s. */
const known = new Map<string, SandboxUsability>();

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
    support = probe(chosen)
      .catch((error: unknown) => ({
        usable: false as const,
        reason: `probing bubblewrap failed: ${(error as Error).message}`,
      }))
      .then((found) => {
        known.set(key, found.usable ? { usable: true } : found);
        return found;
      });
    detected.set(key, support);
  }
  return support;
}

/**
 * `detectSandbox`'s first answer, whether bubblewrap can start a sandbox here, for code that cannot wait for it
 * (`createBuiltinTools` deciding whether a sandbox-only `bash` is visible): the answer `detectSandbox` already has,
 * else the same probe run synchronously (one run of bwrap, blocking: 30 to 40 ms on a busy 2-core machine), remembered
 * per bwrap path like `detectSandbox`'s.
 */
export function checkSandboxNow(): SandboxUsability {
  const chosen = process.env[BWRAP_VARIABLE];
  const key = chosen ?? "";
  let usability = known.get(key);
  if (usability === undefined) {
    const target = probeTarget(chosen);
    if ("reason" in target) usability = target;
    else {
      const [sizedArgs, unsizedArgs] = startProbes(target.initShell);
      const sized = runSync(target.bwrap, sizedArgs);
      usability = startOutcome(target.bwrap, sized.code === 0 ? [sized] : [sized, runSync(target.bwrap, unsizedArgs)]);
    }
    known.set(key, usability);
  }
  return usability;
}

/** The bwrap and the init shell to probe with, or why there is nothing to probe. */
function probeTarget(
  chosen: string | undefined,
): { bwrap: string; initShell: string } | { usable: false; reason: string } {
  if (process.platform !== "linux")
    return { usable: false, reason: `bubblewrap needs Linux, this is ${process.platform}` };
  if (chosen === "none") return { usable: false, reason: `bubblewrap is turned off here (${BWRAP_VARIABLE}=none)` };
  const bwrap = chosen ?? findExecutable("bwrap");
  if (bwrap === undefined) return { usable: false, reason: "bubblewrap is not installed (no bwrap on PATH)" };
  if (!isExecutable(bwrap)) return { usable: false, reason: `${bwrap} is not an executable file` };
  const initShell = ["/bin/bash", "/usr/bin/bash"].find(isExecutable);
  if (initShell === undefined) return { usable: false, reason: "no bash at /bin/bash or /usr/bin/bash" };
  return { bwrap, initShell };
}

/** The probe's bwrap arguments: with a sized /tmp (bwrap 0.5.0 and later), and without. */
function startProbes(initShell: string): [sized: string[], unsized: string[]] {
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
  return [
    [...base, "--size", "1048576", ...rest, ...command],
    [...base, ...rest, ...command],
  ];
}

/** Whether either probe started a sandbox; else why not, with the first line bwrap said. */
function startOutcome(bwrap: string, outcomes: readonly RunOutcome[]): SandboxUsability {
  if (outcomes.some((outcome) => outcome.code === 0)) return { usable: true };
  const last = outcomes.at(-1) as RunOutcome;
  const said = last.output.trim().split("\n")[0] ?? "";
  return {
    usable: false,
    reason: `${bwrap} could not start a sandbox (${said === "" ? `exit code ${last.code}` : said}); user namespaces may be turned off on this machine or in this container`,
  };
}

async function probe(chosen: string | undefined): Promise<SandboxSupport> {
  const target = probeTarget(chosen);
  if ("reason" in target) return target;
  const { bwrap, initShell } = target;
  const [sizedArgs, unsizedArgs] = startProbes(initShell);
  const [sized, version, cgroup] = await Promise.all([
    run(bwrap, sizedArgs),
    run(bwrap, ["--version"]),
    findPidsCgroupParent(),
  ]);
  const tmpSizeLimit = sized.code === 0;
  const started = startOutcome(bwrap, tmpSizeLimit ? [sized] : [sized, await run(bwrap, unsizedArgs)]);
  if (!started.usable) return started;
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

interface RunOutcome {
  readonly code: number | null;
  readonly output: string;
}

function runSync(file: string, args: readonly string[]): RunOutcome {
  const done = spawnSync(file, args, { stdio: ["ignore", "pipe", "pipe"], timeout: 5000, maxBuffer: 64 * 1024 });
  if (done.error !== undefined && done.status === null) return { code: null, output: done.error.message };
  return { code: done.status, output: `${done.stdout ?? ""}${done.stderr ?? ""}`.slice(0, 4096) };
}

function run(file: string, args: readonly string[]): Promise<RunOutcome> {
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
