// toolwire/ai-sdk: a session's tools as a Vercel AI SDK ToolSet (toAiSdkTools), and AI SDK tools as toolwire tools.
// `ai` is an optional peer dependency: this entry checks it first and only then loads ./api.js (synchronously, with no
// top-level await, so `require("toolwire/ai-sdk")` works), so a missing `ai` is a MissingPeerDependencyError.
import { createRequire } from "node:module";
import { assertPackagesInstalled } from "../../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled("toolwire/ai-sdk", ["ai"]);
const api = createRequire(import.meta.url)("./api.js") as typeof Api;

export const { fromAiSdkModelOutput, fromAiSdkTools, toAiSdkModelOutput, toAiSdkTools, ToolCallFailedError } = api;

// A class is a value and a type: the constant above carries the value, this the instance type.
export type ToolCallFailedError = Api.ToolCallFailedError;
