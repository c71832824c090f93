// An active tool as calls use it: its wrapper, its null plan and its compiled input check, made once per tool.
import type { AgentTool, JsonObject } from "../types.js";
import { type WrappedTool, wrapTool } from "../wrap/wrap-tool.js";
import { nullDropperFor } from "./strip-nulls.js";
import type { InputValidator } from "./validate.js";

/** An active tool as calls use it. */
export interface CallableTool {
  readonly tool: WrappedTool;
  /** Drops the nulls a strict-mode provider sends for optional properties (`dropNullOptionals`). */
  readonly dropNulls: (input: JsonObject) => JsonObject;
  readonly validate: InputValidator;
}

/** `tool` as calls use it, with the session's validator for its schema. */
export function callableTool(tool: AgentTool, validatorFor: (schema: JsonObject) => InputValidator): CallableTool {
  const schema = tool.descriptor.inputSchema;
  return { tool: wrapTool(tool), dropNulls: nullDropperFor(schema), validate: validatorFor(schema) };
}
