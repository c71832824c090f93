// What toolwire/langchain offers, for its entry (./index.ts), which loads this module once @langchain/core is found.

export { type ToolCallFailedCode, ToolCallFailedError } from "../tool-call-failed-error.js";
export { fromLangChainContent } from "./from-langchain-content.js";
export { fromLangChainTools } from "./from-langchain-tools.js";
export { SessionStructuredTool, type SessionToolDispatchOptions } from "./session-structured-tool.js";
export { toLangChainContent } from "./to-langchain-content.js";
export { type ToLangChainToolsOptions, toLangChainTools } from "./to-langchain-tools.js";
