// toolwire/code-mode: run_code, a tool whose input is a program that calls the session's tools (docs/code-mode.md).

export { type CodeModeLimits, type CodeModeOptions, DEFAULT_CODE_MODE_LIMITS } from "./code-mode-options.js";
export { type CodeMode, createCodeMode, RUN_CODE_NAME } from "./create-code-mode.js";
