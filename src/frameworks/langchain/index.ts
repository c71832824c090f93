// toolwire/langchain: a session's tools under LangChain's agents (toLangChainTools), and LangChain's tools in a toolwire
// registry (fromLangChainTools). @langchain/core is an optional peer dependency that ./api.ts's modules import, and a
// static import of a missing package fails before any code of ours runs; so this entry checks for it first and only
// then loads ./api.js, synchronously (require of an ES module, Node >= 20.19) so that `require("toolwire/langchain")`
// works too. The names below are ./api.ts's, one for one.
import { createRequire } from "node:module";
import { assertPackagesInstalled } from "../../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled("toolwire/langchain", ["@langchain/core"]);
const api = createRequire(import.meta.url)("./api.js") as typeof Api;

export const {
  fromLangChainContent,
  fromLangChainTools,
  SessionStructuredTool,
  ToolCallFailedError,
  toLangChainContent,
  toLangChainTools,
} = api;

// A class is a value and a type: the destructured constants above carry the values, these the instance types.
export type SessionStructuredTool = Api.SessionStructuredTool;
export type ToolCallFailedError = Api.ToolCallFailedError;
