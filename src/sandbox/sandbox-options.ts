// The sandbox options (docs/sandbox.md) as users write them, their defaults, and their check into absolute paths.
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { SandboxError } from "./sandbox-error.js";

/** What a sandboxed process may reach on the network. */
export type SandboxNetwork = "off" | "on" | { readonly allowHosts: readonly string[] };

/** How `bash` (or a stdio MCP server) is confined; every field is optional. See docs/sandbox.md. */
export interface SandboxOptions {
  /** `"auto"` (default): sandboxed where bubblewrap works, else unsandboxed; `"required"`: never unsandboxed. */
  readonly mode?: "auto" | "required";
  /** Default `"off"`: no network at all; `{ allowHosts }`: HTTP(S) through a filtering proxy to those hosts only. */
  readonly network?: SandboxNetwork;
  /** Writable paths beyond the workspace root and the private /tmp (relative to the root, `~/` for the home). */
  readonly writable?: readonly string[];
  /** Paths inside the root that stay read-only. Default `[".git"]`, so a command cannot plant hooks. */
  readonly readOnly?: readonly string[];
  /**
   * Paths hidden from the command (relative ones and `~/` resolve against the home folder). Default
   * `DEFAULT_DENY_READ`.
   */
  readonly denyRead?: readonly string[];
  /** The most processes (threads count) the command may run at once. Default 1024. */
  readonly maxProcesses?: number;
  /** The size of the private /tmp (and /dev/shm), in bytes. Default 512 MiB. */
  readonly tmpSizeBytes?: number;
}

/** The default `readOnly`: the repository's metadata (hooks, config). */
export const DEFAULT_READ_ONLY = Object.freeze([".git"]);
/** The default `denyRead`: credential folders and files of the user's home. */
export const DEFAULT_DENY_READ = Object.freeze([
  ".ssh",
  ".aws",
  ".azure",
  ".gnupg",
  ".config/gh",
  ".config/hub",
  ".config/gcloud",
  ".docker",
  ".kube",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".password-store",
  ".vault-token",
  ".pgpass",
  ".local/share/keyrings",
]);
/** The default `maxProcesses`. */
export const DEFAULT_MAX_PROCESSES = 1024;
/** The default `tmpSizeBytes`: 512 MiB. */
export const DEFAULT_TMP_SIZE_BYTES = 512 * 1024 * 1024;

/** Sandbox options checked and made absolute for one root. */
export interface ResolvedSandbox {
  readonly mode: "auto" | "required";
  readonly network:
    | { readonly kind: "off" }
    | { readonly kind: "on" }
    | { readonly kind: "proxy"; readonly allowHosts: readonly string[] };
  /** The folder that is writable and the working folder (the workspace root, or an MCP server's cwd). */
  readonly root: string;
  readonly writable: readonly string[];
  readonly readOnly: readonly string[];
  readonly denyRead: readonly string[];
  readonly maxProcesses: number;
  readonly tmpSizeBytes: number;
}

/**
 * Checks `options` (from code or a config file, so any value) and resolves its paths: `writable` against
 * `root`, `readOnly` inside `root`, `denyRead` against each of `homes` (default: this user's home), `~/` against
 * the home everywhere. `"off"` gives `undefined`. Throws `SandboxError` (`invalid-sandbox-option`) naming the
 * field that is wrong; `label` prefixes it (`sandbox`, `mcpServers[0].sandbox`).
 */
export function resolveSandboxOptions(
  options: unknown,
  context: { readonly root: string; readonly homes?: readonly string[]; readonly label?: string },
): ResolvedSandbox | undefined {
  const label = context.label ?? "sandbox";
  const fail = (field: string, why: string): never => {
    throw new SandboxError("invalid-sandbox-option", `${label}${field === "" ? "" : `.${field}`} ${why}`);
  };
  if (options === "off") return undefined;
  const given = options ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    fail("", `must be "off" or an object of sandbox options, got ${JSON.stringify(options)}`);
  }
  const record = given as Record<string, unknown>;
  const known = ["mode", "network", "writable", "readOnly", "denyRead", "maxProcesses", "tmpSizeBytes"];
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) fail(key, `is not a sandbox option (known: ${known.join(", ")})`);
  }
  const mode = record.mode ?? "auto";
  if (mode !== "auto" && mode !== "required") {
    return fail("mode", `must be "auto" or "required", got ${JSON.stringify(mode)}`);
  }
  const root = resolve(context.root);
  const homes = [...new Set((context.homes ?? [homedir()]).filter((home) => home !== "").map((home) => resolve(home)))];
  const home = homes[0] ?? homedir();
  const paths = (field: string, fallback: readonly string[]): string[] => {
    const value = record[field] ?? fallback;
    if (
      !Array.isArray(value) ||
      !value.every((path) => typeof path === "string" && path !== "" && !path.includes("\0"))
    ) {
      fail(field, `must be a list of non-empty paths, got ${JSON.stringify(value)}`);
    }
    return value as string[];
  };
  const expand = (path: string, base: string) =>
    path === "~" ? home : path.startsWith("~/") ? resolve(home, path.slice(2)) : resolve(base, path);
  const readOnly = paths("readOnly", DEFAULT_READ_ONLY).map((path) => {
    const absolute = expand(path, root);
    const inside = relative(root, absolute);
    if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      fail("readOnly", `lists ${JSON.stringify(path)}, which is not inside the root ${root}`);
    }
    return absolute;
  });
  const denyRead = paths("denyRead", DEFAULT_DENY_READ).flatMap((path) =>
    isAbsolute(path) || path === "~" || path.startsWith("~/")
      ? [expand(path, home)]
      : homes.map((base) => resolve(base, path)),
  );
  const limit = (field: string, fallback: number, least: number): number => {
    const value = record[field] ?? fallback;
    if (!(typeof value === "number" && Number.isSafeInteger(value) && value >= least)) {
      fail(field, `must be a whole number of at least ${least}, got ${JSON.stringify(value)}`);
    }
    return value as number;
  };
  return {
    mode,
    network: resolveNetwork(record.network, fail),
    root,
    writable: paths("writable", []).map((path) => expand(path, root)),
    readOnly,
    denyRead: [...new Set(denyRead)],
    maxProcesses: limit("maxProcesses", DEFAULT_MAX_PROCESSES, 8),
    tmpSizeBytes: limit("tmpSizeBytes", DEFAULT_TMP_SIZE_BYTES, 1024 * 1024),
  };
}

/** The pattern a host of `allowHosts` must match: a name or IP literal, or `*.` and a domain. */
export const HOST_PATTERN = /^(\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})$|^\[?[0-9A-Fa-f:.]+\]?$/;

function resolveNetwork(value: unknown, fail: (field: string, why: string) => never): ResolvedSandbox["network"] {
  if (value === undefined || value === "off") return { kind: "off" };
  if (value === "on") return { kind: "on" };
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const hosts = (value as { allowHosts?: unknown }).allowHosts;
    if (keys.length === 1 && Array.isArray(hosts)) {
      for (const host of hosts) {
        if (typeof host !== "string" || !HOST_PATTERN.test(host)) {
          fail(
            "network.allowHosts",
            `lists ${JSON.stringify(host)}, which is not a host name (such as "packages.example.com" or "*.github.com")`,
          );
        }
      }
      return { kind: "proxy", allowHosts: (hosts as string[]).map((host) => host.toLowerCase()) };
    }
  }
  return fail("network", `must be "off", "on" or { "allowHosts": [...] }, got ${JSON.stringify(value)}`);
}
