// toolwire/builtins: the built-in tools (read, write, edit, bash, ls, grep, find, and web_fetch when asked for) and
// their workspace guard.

export { describeSandbox } from "../sandbox/describe-sandbox.js";
export {
  BWRAP_VARIABLE,
  detectSandbox,
  type SandboxProcessLimit,
  type SandboxSupport,
} from "../sandbox/detect-sandbox.js";
export { SandboxError, type SandboxErrorCode } from "../sandbox/sandbox-error.js";
export {
  DEFAULT_DENY_READ,
  DEFAULT_MAX_PROCESSES,
  DEFAULT_READ_ONLY,
  DEFAULT_TMP_SIZE_BYTES,
  type ResolvedSandbox,
  resolveSandboxOptions,
  type SandboxNetwork,
  type SandboxOptions,
} from "../sandbox/sandbox-options.js";
export type { BashDetails } from "./bash.js";
export { DEFAULT_BASH_TIMEOUT_MS, DEFAULT_KILL_GRACE_MS, MAX_BASH_TIMEOUT_MS } from "./bash.js";
export { BASE_BASH_ENV, type BashEnvOptions } from "./bash-env.js";
export { BuiltinToolsError, type BuiltinToolsErrorCode } from "./builtin-tools-error.js";
export { BUILTIN_TOOL_NAMES, type BuiltinToolsOptions, createBuiltinTools } from "./create-builtin-tools.js";
export type { EditDetails } from "./edit.js";
export type { FindDetails } from "./find.js";
export type { GrepDetails } from "./grep.js";
export type { LsDetails } from "./ls.js";
export type { ReadDetails } from "./read.js";
export type { BashContainment } from "./run-command.js";
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate.js";
export type { WalkReport } from "./walk.js";
export { createWebFetchTool, WEB_FETCH_TOOL_NAME, type WebFetchDetails } from "./web-fetch.js";
export type { WebFetchErrorCode } from "./web-fetch-error.js";
export {
  DEFAULT_WEB_FETCH_MAX_BYTES,
  DEFAULT_WEB_FETCH_MAX_REDIRECTS,
  DEFAULT_WEB_FETCH_TIMEOUT_MS,
  type WebFetchOptions,
} from "./web-fetch-options.js";
export { createWorkspace, type Workspace, type WorkspacePath } from "./workspace.js";
export type { WriteDetails } from "./write.js";
