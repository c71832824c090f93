// Everything one sandboxed process needs before it starts: its pids cgroup, its proxy, bwrap's arguments, its
// environment.
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { buildBwrapArguments, PROXY_INNER_DIR, PROXY_SOCKET_NAME } from "./bwrap-arguments.js";
import { type CgroupStub, spawnCgroupStub } from "./cgroup-stub.js";
import type { SandboxSupport } from "./detect-sandbox.js";
import { type FilteringProxy, startFilteringProxy } from "./filtering-proxy.js";
import { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";
import { PROXY_BRIDGE_PORT, PROXY_BRIDGE_SCRIPT } from "./proxy-bridge-script.js";
import { SandboxError } from "./sandbox-error.js";
import { DEFAULT_MAX_PROCESSES, type ResolvedSandbox } from "./sandbox-options.js";

/**
 * How to start one process in the sandbox: `commandLine(inner)` is the whole command line running `inner`
 * (an argv) there; when `stub` is set, start that command line through the stub (already in its cgroup)
 * instead of spawning it. Inside, first apply `ulimit -u <rlimit>` when `rlimit` is set, and start `bridge`
 * (a command printing `ready` on stdout once listening) when there is one; merge `env` over the process's
 * environment. Call `release()` once the process and everything it started have ended (it stops the proxy,
 * removes the cgroup and gets the next stub ready).
 */
export interface SandboxLaunch {
  commandLine(inner: readonly string[]): { file: string; args: string[] };
  readonly stub: CgroupStub | undefined;
  readonly initShell: string;
  readonly rlimit: number | undefined;
  readonly bridge: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string>>;
  release(): Promise<void>;
}

type UsableSupport = Extract<SandboxSupport, { usable: true }>;

/** The stub the next prestarted launch takes: one waits ready per cgroup parent. */
const spares = new Map<string, Promise<CgroupStub | undefined>>();

function makeSpare(parent: string, shell: string): void {
  spares.set(
    parent,
    spawnCgroupStub(parent, shell, DEFAULT_MAX_PROCESSES).catch(() => undefined),
  );
}

async function takeStub(parent: string, shell: string, maxProcesses: number): Promise<CgroupStub> {
  // Taken before the wait: two calls at once must never share one stub.
  const waiting = spares.get(parent);
  spares.delete(parent);
  const spare = await waiting;
  if (spare?.alive() === true) {
    await writeFile(join(dirname(spare.cgroup.procsFile), "pids.max"), String(maxProcesses));
    return spare;
  }
  if (spare !== undefined) void spare.cgroup.remove();
  return spawnCgroupStub(parent, shell, maxProcesses);
}

/**
 * Prepares a launch: gets the pids cgroup (when the host has one for us: with `prestart`, a stub that joined it
 * ahead of time, else a `sh` that joins it before becoming bwrap), starts the filtering proxy for `allowHosts`,
 * and builds the bwrap command line. Throws `SandboxError` (`sandbox-failed`) when the cgroup or the proxy cannot
 * be set up; nothing is left behind then.
 */
export async function prepareSandboxLaunch(
  sandbox: ResolvedSandbox,
  support: UsableSupport,
  options: { readonly asPid1?: boolean; readonly prestart?: boolean } = {},
): Promise<SandboxLaunch> {
  let cgroup: PidsCgroup | undefined;
  let stub: CgroupStub | undefined;
  let proxy: FilteringProxy | undefined;
  const limit = support.processLimit;
  const release = async () => {
    await proxy?.close().catch(() => undefined);
    // The namespace's last processes may take a moment to leave the cgroup: removed in the background.
    if (cgroup !== undefined) void cgroup.remove();
    if (stub !== undefined && limit.kind === "cgroup") makeSpare(limit.parent, support.initShell);
  };
  try {
    if (limit.kind === "cgroup") {
      const made =
        options.prestart === true
          ? takeStub(limit.parent, support.initShell, sandbox.maxProcesses).then((taken) => {
              stub = taken;
              return taken.cgroup;
            })
          : createPidsCgroup(limit.parent, sandbox.maxProcesses);
      cgroup = await made.catch((error: unknown) => {
        throw new SandboxError(
          "sandbox-failed",
          `The sandbox's process limit could not be set up: ${(error as Error).message}`,
          { cause: error },
        );
      });
    }
    if (sandbox.network.kind === "proxy") {
      const allowHosts = sandbox.network.allowHosts;
      proxy = await startFilteringProxy({ allowHosts }).catch((error: unknown) => {
        throw new SandboxError(
          "sandbox-failed",
          `The sandbox's network proxy could not start: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      });
    }
  } catch (error) {
    await release();
    throw error;
  }
  const bwrapArgs = buildBwrapArguments(sandbox, {
    tmpSizeLimit: support.tmpSizeLimit,
    ...(proxy === undefined ? {} : { proxyDir: proxy.dir }),
    ...(options.asPid1 === undefined ? {} : { asPid1: options.asPid1 }),
  });
  const proxyUrl = `http://127.0.0.1:${PROXY_BRIDGE_PORT}`;
  const env: Record<string, string> = { TMPDIR: "/tmp" };
  if (proxy !== undefined) {
    for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) env[name] = proxyUrl;
  }
  const procsFile = cgroup?.procsFile;
  return {
    commandLine: (inner) =>
      procsFile === undefined || stub !== undefined
        ? { file: support.bwrap, args: [...bwrapArgs, ...inner] }
        : // The cgroup must hold the process before it forks: a shell joins it, then becomes bwrap.
          {
            file: "/bin/sh",
            args: ["-c", 'echo $$ > "$0" && exec "$@"', procsFile, support.bwrap, ...bwrapArgs, ...inner],
          },
    stub,
    initShell: support.initShell,
    rlimit: limit.kind === "rlimit" ? sandbox.maxProcesses : undefined,
    bridge:
      proxy === undefined
        ? undefined
        : [
            process.execPath,
            "-e",
            PROXY_BRIDGE_SCRIPT,
            String(PROXY_BRIDGE_PORT),
            `${PROXY_INNER_DIR}/${PROXY_SOCKET_NAME}`,
          ],
    env,
    release,
  };
}

/**
 * Run as `bash -c SANDBOXED_EXEC_SCRIPT toolwire-sandbox RLIMIT BRIDGE_COUNT [BRIDGE...] COMMAND [ARGS...]`
 * inside the sandbox: applies `ulimit -u RLIMIT` (when not empty), starts the bridge and waits for its
 * `ready` (exit 125 with a message on stderr when it never comes), then becomes the command (`exec`).
 */
const SANDBOXED_EXEC_SCRIPT = [
  `[ -z "$1" ] || ulimit -u "$1" 2>/dev/null`,
  `count=$2; shift 2`,
  `if [ "$count" -gt 0 ]; then`,
  `  exec 5< <(exec "\${@:1:$count}")`,
  `  read -r -u 5 _ || { echo "toolwire: the sandbox's network bridge did not start" >&2; exit 125; }`,
  `  exec 5<&-`,
  `  shift "$count"`,
  `fi`,
  `exec "$@"`,
].join("\n");

/** The whole command line that starts `command args...` in the sandbox of `launch` and becomes it. */
export function sandboxedCommandLine(
  launch: SandboxLaunch,
  command: string,
  args: readonly string[],
): { file: string; args: string[] } {
  const bridge = launch.bridge ?? [];
  return launch.commandLine([
    launch.initShell,
    "-c",
    SANDBOXED_EXEC_SCRIPT,
    "toolwire-sandbox",
    launch.rlimit === undefined ? "" : String(launch.rlimit),
    String(bridge.length),
    ...bridge,
    command,
    ...args,
  ]);
}
