// toolwire/pi: a session's tools under pi's agent loop (toPiTools), and pi's tools in a toolwire registry
// (fromPiTools). pi's tools are plain objects, typed by ./pi-agent-tool.ts as pi 0.73 and 1 share them, so either pi
// package (`@mariozechner/pi-agent-core` 0.73, `@earendil-works/pi-agent-core` 1) fits. Only a failed call of
// `toPiTools` loads pi, once, to learn which one it is (./pi-reads-error-results.ts).

export { type ToolCallFailedCode, ToolCallFailedError } from "../tool-call-failed-error.js";
export { fromPiContent } from "./from-pi-content.js";
export { fromPiTools } from "./from-pi-tools.js";
export type { PiAgentTool, PiContent, PiToolResult } from "./pi-agent-tool.js";
export { toPiContent } from "./to-pi-content.js";
export { type ToPiToolsOptions, toPiTools } from "./to-pi-tools.js";
