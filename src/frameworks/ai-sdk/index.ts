// toolwire/ai-sdk: a session's tools as a Vercel AI SDK ToolSet (toAiSdkTools), and AI SDK tools as toolwire tools.
// `ai` is an optional peer dependency: this entry checks it first and only then imports ./api.js, so a missing `ai`
// is a MissingPeerDependencyError.
// `import` loads this file and `require()` loads ./index.cts, which does the same with require(). This file never
// require()s an ES module: under import(), Node 20 and 22 can crash when that meets a module another import() is
// still loading (test/e2e/entry-points.test.ts). The names below are ./api.ts's, one for one (a test keeps them so).
import { assertPackagesInstalled } from "../../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled("toolwire/ai-sdk", ["ai"]);
export const { fromAiSdkModelOutput, fromAiSdkTools, toAiSdkModelOutput, toAiSdkTools, ToolCallFailedError } =
  await import("./api.js");

// A class is a value and a type: the constant above carries the value, this the instance type.
export type ToolCallFailedError = Api.ToolCallFailedError;
