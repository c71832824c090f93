// toolwire/langchain: a session's tools under LangChain's agents (toLangChainTools), and LangChain's tools in a
// toolwire registry (fromLangChainTools). @langchain/core is an optional peer dependency that ./api.ts's modules
// import, and a static import of a missing package fails before any code of ours runs; so this entry checks for it
// first and only then imports ./api.js.
// `import` loads this file and `require()` loads ./index.cts, which does the same with require(). This file never
// require()s an ES module: under import(), Node 20 and 22 can crash when that meets a module another import() is
// still loading (test/e2e/entry-points.test.ts). The names below are ./api.ts's, one for one (a test keeps them so).
import { assertPackagesInstalled } from "../../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled("toolwire/langchain", ["@langchain/core"]);
export const {
  fromLangChainContent,
  fromLangChainTools,
  SessionStructuredTool,
  ToolCallFailedError,
  toLangChainContent,
  toLangChainTools,
} = await import("./api.js");

// A class is a value and a type: the destructured constants above carry the values, these the instance types.
export type SessionStructuredTool = Api.SessionStructuredTool;
export type ToolCallFailedError = Api.ToolCallFailedError;
