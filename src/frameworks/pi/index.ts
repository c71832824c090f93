// toolwire/pi: a session's tools under pi's agent loop (toPiTools), and pi's tools in a toolwire registry (fromPiTools).
// Nothing here loads pi at run time: pi's tools are plain objects, so only the declaration files name its packages.

export { type ToolCallFailedCode, ToolCallFailedError } from "../tool-call-failed-error.js";
export { fromPiContent } from "./from-pi-content.js";
export { fromPiTools } from "./from-pi-tools.js";
export { toPiContent } from "./to-pi-content.js";
export { type ToPiToolsOptions, toPiTools } from "./to-pi-tools.js";
