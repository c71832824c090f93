// createBuiltinTools: the agent's hands (read, write, edit, bash, ls, grep, find) confined to one workspace root.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import type { AgentTool } from "../core/types.js";
import { SandboxError } from "../sandbox/sandbox-error.js";
import { type ResolvedSandbox, resolveSandboxOptions, type SandboxOptions } from "../sandbox/sandbox-options.js";
import { createBashTool, DEFAULT_BASH_TIMEOUT_MS, DEFAULT_KILL_GRACE_MS } from "./bash.js";
import { type BashEnvOptions, buildBashEnv } from "./bash-env.js";
import type { BuiltinContext } from "./builtin-context.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";
import { createEditTool } from "./edit.js";
import { createFindTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createReadTool } from "./read.js";
import { createReadTracker } from "./read-tracker.js";
import { createWebFetchTool } from "./web-fetch.js";
import type { WebFetchOptions } from "./web-fetch-options.js";
import { createWorkspace } from "./workspace.js";
import { createWriteTool } from "./write.js";

/** The names `createBuiltinTools` gives, in its order (also the `group:fs` and `group:runtime` members). */
export const BUILTIN_TOOL_NAMES = Object.freeze(["read", "write", "edit", "bash", "ls", "grep", "find"] as const);

/** Options of `createBuiltinTools`. Only `root` is required. */
export interface BuiltinToolsOptions {
  /** The workspace folder; every path the tools take resolves inside it, and `bash` runs there. */
  readonly root: string;
  /** `bash`'s timeout when a call names none. Default 120 000 ms. */
  readonly bashTimeoutMs?: number;
  /** How long `bash` waits after SIGTERM before SIGKILL when it ends a process group. Default 2000 ms. */
  readonly killGraceMs?: number;
  /** The shell for `bash`. Default `/bin/bash`, else `/bin/sh`. */
  readonly shell?: string;
  /**
   * What `bash` commands get of this process's environment beyond the minimal one (`PATH`, `HOME`, `LANG`,
   * `TERM`, `USER`, `SHELL`, `TMPDIR`, `LC_*`): `pass` names or globs to pass through, `set` adds variables.
   * `{ pass: ["*"] }` passes the whole environment (API keys included).
   */
  readonly env?: BashEnvOptions;
  /**
   * How `bash` is confined (docs/sandbox.md). Default `{ mode: "auto" }`: in bubblewrap where it
   * works here (the host read-only but for the root and a private /tmp, `.git` read-only, the home's
   * credential folders hidden, no network), else unsandboxed. `"required"` never runs a command unsandboxed: it
   * checks once per process, as the tools are made (one blocking run of bwrap), whether bubblewrap can start a sandbox
   * here, and where it cannot, hides `bash` by `{ kind: "capability", name: "sandbox", explanation }` saying why.
   * `"off"` never sandboxes.
   */
  readonly sandbox?: "off" | SandboxOptions;
  /**
   * Adds `web_fetch` (docs/web-fetch.md), which fetches http(s) URLs on the hosts these options allow. Absent: no
   * `web_fetch`.
   */
  readonly web?: WebFetchOptions;
}

/**
 * The built-in tools for one workspace: `read`, `write`, `edit`, `bash`, `ls`, `grep`, `find`, each
 * owned `{ kind: "core" }`. They share a read tracker, so `edit` refuses a file changed since this
 * set of tools last read or wrote it. Throws `BuiltinToolsError`: `invalid-workspace-root` when `root` is not an
 * existing folder, `invalid-option` for a timeout or grace period that is not a positive number, an `env` of the wrong
 * shape, a `sandbox` that is not `"off"` or valid sandbox options, or `web` options it cannot use (the message names
 * the field). With `web`, `web_fetch` comes last; it cuts only at `web.maxBytes`, so the session's result budget
 * applies to it.
 */
export function createBuiltinTools(options: BuiltinToolsOptions): AgentTool[] {
  const workspace = createWorkspace(options.root);
  const positive = (value: number | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    if (!(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      throw new BuiltinToolsError(
        "invalid-option",
        `${name} must be a positive number of milliseconds, got ${String(value)}`,
      );
    }
    return value;
  };
  const env = buildBashEnv(process.env, options.env);
  const context: BuiltinContext = {
    workspace,
    tracker: createReadTracker(),
    bashTimeoutMs: positive(options.bashTimeoutMs, DEFAULT_BASH_TIMEOUT_MS, "bashTimeoutMs"),
    killGraceMs: positive(options.killGraceMs, DEFAULT_KILL_GRACE_MS, "killGraceMs"),
    shell: options.shell ?? (existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh"),
    env,
    sandbox: resolveBashSandbox(options.sandbox, workspace.realRoot, env.HOME),
  };
  const web = options.web === undefined ? [] : [createWebFetchTool(options.web)];
  return [
    createReadTool(context),
    createWriteTool(context),
    createEditTool(context),
    createBashTool(context),
    createLsTool(context),
    createGrepTool(context),
    createFindTool(context),
  ]
    .map(exemptFromResultBudget)
    .concat(web);
}

/**
 * Each built-in cuts its own output (2000 lines or 50 KB, with a note on how to read on), so the session's result
 * budget would only save the cut text to a file again: the built-ins have no budget of their own.
 */
function exemptFromResultBudget(tool: AgentTool): AgentTool {
  return Object.freeze({ ...tool, maxResultChars: Number.POSITIVE_INFINITY });
}

/** The sandbox for `bash`, its credential folders looked up in this user's home and in the home `bash` is given. */
function resolveBashSandbox(
  sandbox: BuiltinToolsOptions["sandbox"],
  root: string,
  bashHome: string | undefined,
): ResolvedSandbox | undefined {
  try {
    return resolveSandboxOptions(sandbox, { root, homes: [homedir(), ...(bashHome === undefined ? [] : [bashHome])] });
  } catch (error) {
    if (error instanceof SandboxError) throw new BuiltinToolsError("invalid-option", error.message);
    throw error;
  }
}
