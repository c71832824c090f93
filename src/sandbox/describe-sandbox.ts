// The sandbox state in one line, for `toolwire plan`, `explain` and docs: what confines a command, or why nothing does.
import type { SandboxSupport } from "./detect-sandbox.js";
import type { ResolvedSandbox } from "./sandbox-options.js";

/**
 * Such as `bubblewrap, network off`, `bubblewrap, network only via proxy to packages.example.com`,
 * `none (sandbox off)`, `none (bubblewrap not usable: <why>)`, or for `mode: "required"` without a usable
 * bubblewrap `required but not usable (<why>): hidden`.
 */
export function describeSandbox(sandbox: ResolvedSandbox | undefined, support: SandboxSupport): string {
  if (sandbox === undefined) return "none (sandbox off)";
  if (!support.usable) {
    return sandbox.mode === "required"
      ? `required but not usable (${support.reason}): hidden`
      : `none (bubblewrap not usable: ${support.reason})`;
  }
  const network =
    sandbox.network.kind === "on"
      ? "network on"
      : sandbox.network.kind === "off"
        ? "network off"
        : `network only via proxy to ${sandbox.network.allowHosts.join(", ") || "no host"}`;
  const processes =
    support.processLimit.kind === "none" ? "no process limit" : `at most ${sandbox.maxProcesses} processes`;
  return `bubblewrap, ${network}, ${processes}${support.tmpSizeLimit ? "" : ", /tmp not size-limited (this bwrap has no --size)"}`;
}
