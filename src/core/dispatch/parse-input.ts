// A model's tool input is untrusted: an object, JSON text encoding one, or anything else.
import { type ToolCallError, toolCallRefusal } from "../errors.js";
import { isRecord } from "../json.js";
import type { JsonObject } from "../types.js";

/** The input as an object, or a `ToolCallError` (`invalid-input`) saying what was wrong. `undefined` counts as `{}`. */
export function parseToolInput(toolName: string, raw: unknown): JsonObject | ToolCallError {
  if (isRecord(raw)) return raw as JsonObject;
  if (raw === undefined) return {};
  if (typeof raw === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      return toolCallRefusal(
        "invalid-input",
        toolName,
        `Invalid input for tool ${toolName}: the input is not valid JSON (${(error as Error).message}). Send the input as one JSON object, for example {"key": "value"}.`,
      );
    }
    if (isRecord(parsed)) return parsed as JsonObject;
    return notAnObject(toolName, parsed, " (after parsing the JSON text)");
  }
  return notAnObject(toolName, raw, "");
}

function notAnObject(toolName: string, value: unknown, where: string): ToolCallError {
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return toolCallRefusal(
    "invalid-input",
    toolName,
    `Invalid input for tool ${toolName}: expected a JSON object, got ${kind}${where}. Send the arguments as one object whose keys are the parameter names.`,
  );
}
