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
export async function prepareSandboxLaunch(sandbox: ResolvedSandbox, support: UsableSupport): Promise<SandboxLaunch> {
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
