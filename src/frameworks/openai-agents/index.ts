// toolwire/openai-agents: a session's tools as OpenAI Agents SDK function tools, and Agents SDK tools as toolwire
// tools. `@openai/agents-core` is an optional peer dependency: this entry checks it first and only then imports
// ./api.js, so a missing package is a MissingPeerDependencyError.
// `import` loads this file and `require()` loads ./index.cts, which does the same with require(). This file never
// require()s an ES module: under import(), Node 20 and 22 can crash when that meets a module another import() is
// still loading (test/e2e/entry-points.test.ts). The names below are ./api.ts's, one for one (a test keeps them so).
import { assertPackagesInstalled } from "../../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled("toolwire/openai-agents", ["@openai/agents-core"]);
export const {
  fromOpenAIAgentsOutput,
  fromOpenAIAgentsTools,
  OPENAI_AGENTS_DEFAULT_ERROR_TEXT,
  toOpenAIAgentsOutput,
  toOpenAIAgentsTools,
  ToolCallFailedError,
} = await import("./api.js");

// A class is a value and a type: the constant above carries the value, this the instance type.
export type ToolCallFailedError = Api.ToolCallFailedError;
