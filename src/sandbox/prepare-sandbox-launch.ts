// Everything one sandboxed process needs before it starts: its pids cgroup, its proxy, bwrap's arguments, its environment.
import { buildBwrapArguments, PROXY_INNER_DIR, PROXY_SOCKET_NAME } from "./bwrap-arguments.js";
import type { SandboxSupport } from "./detect-sandbox.js";
import { type FilteringProxy, startFilteringProxy } from "./filtering-proxy.js";
import { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";
import { PROXY_BRIDGE_PORT, PROXY_BRIDGE_SCRIPT } from "./proxy-bridge-script.js";
import { SandboxError } from "./sandbox-error.js";
import type { ResolvedSandbox } from "./sandbox-options.js";

/**
 * How to start one process in the sandbox: run `file` with `[...args, innerCommand...]` (args end with `--`).
 * Inside, first apply `ulimit -u <rlimit>` when `rlimit` is set, and start `bridge` (a command printing
 * `ready` on stdout once listening) when there is one; merge `env` over the process's environment. Call
 * `release()` once the process and everything it started have ended (it stops the proxy, removes the cgroup).
 */
export interface SandboxLaunch {
  readonly file: string;
  readonly args: readonly string[];
  readonly initShell: string;
  readonly rlimit: number | undefined;
  readonly bridge: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string>>;
  release(): Promise<void>;
}

type UsableSupport = Extract<SandboxSupport, { usable: true }>;

/**
 * Prepares a launch: creates the pids cgroup (when the host has one for us), starts the filtering
 * proxy for `allowHosts`, and builds the bwrap command line. Throws `SandboxError` (`sandbox-failed`)
 * when the cgroup or the proxy cannot be set up; nothing is left behind then.
 */
export async function prepareSandboxLaunch(
  sandbox: ResolvedSandbox,
  support: UsableSupport,
  options: { readonly asPid1?: boolean } = {},
): Promise<SandboxLaunch> {
  let cgroup: PidsCgroup | undefined;
  let proxy: FilteringProxy | undefined;
  const release = async () => {
    await proxy?.close().catch(() => undefined);
    await cgroup?.remove();
  };
  try {
    if (support.processLimit.kind === "cgroup") {
      cgroup = await createPidsCgroup(support.processLimit.parent, sandbox.maxProcesses).catch((error: unknown) => {
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
    ...(options.asPid1 === undefined ? {} : { asPid1: options.asPid1 }),
    ...(proxy === undefined ? {} : { proxyDir: proxy.dir }),
  });
  const proxyUrl = `http://127.0.0.1:${PROXY_BRIDGE_PORT}`;
  const env: Record<string, string> = { TMPDIR: "/tmp" };
  if (proxy !== undefined) {
    for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) env[name] = proxyUrl;
  }
  return {
    // The cgroup must hold the process before it forks: a shell joins it, then becomes bwrap.
    file: cgroup === undefined ? support.bwrap : "/bin/sh",
    args:
      cgroup === undefined
        ? bwrapArgs
        : ["-c", 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, support.bwrap, ...bwrapArgs],
    initShell: support.initShell,
    rlimit: support.processLimit.kind === "rlimit" ? sandbox.maxProcesses : undefined,
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
export const SANDBOXED_EXEC_SCRIPT = [
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
  return {
    file: launch.file,
    args: [
      ...launch.args,
      launch.initShell,
      "-c",
      SANDBOXED_EXEC_SCRIPT,
      "toolwire-sandbox",
      launch.rlimit === undefined ? "" : String(launch.rlimit),
      String(bridge.length),
      ...bridge,
      command,
      ...args,
    ],
  };
}
