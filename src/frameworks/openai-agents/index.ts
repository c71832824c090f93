// toolwire/openai-agents: a session's tools as OpenAI Agents SDK function tools, and Agents SDK tools as toolwire tools.
// `@openai/agents-core` is an optional peer dependency: this entry checks it first and only then loads ./api.js
// (synchronously, with no top-level await, so `require("toolwire/openai-agents")` works), so a missing package is a
// MissingPeerDependencyError.
import { createRequire } from "node:module";
import { assertPackagesInstalled } from "../../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled("toolwire/openai-agents", ["@openai/agents-core"]);
const api = createRequire(import.meta.url)("./api.js") as typeof Api;

export const {
  fromOpenAIAgentsOutput,
  fromOpenAIAgentsTools,
  OPENAI_AGENTS_DEFAULT_ERROR_TEXT,
  toOpenAIAgentsOutput,
  toOpenAIAgentsTools,
  ToolCallFailedError,
} = api;

// A class is a value and a type: the constant above carries the value, this the instance type.
export type ToolCallFailedError = Api.ToolCallFailedError;
