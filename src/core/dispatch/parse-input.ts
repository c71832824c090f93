// A model's tool input is untrusted: an object, JSON text encoding one, or anything else.
import { copyJson } from "../copy-json.js";
import { describeThrown, type ToolCallError, toolCallRefusal } from "../errors.js";
import { isRecord } from "../json.js";
import type { JsonObject } from "../types.js";

/**
 * The input as a fresh plain-data object, or a `ToolCallError` (`invalid-input`) saying what was
 * wrong. `undefined` counts as `{}`. Never throws: an input that cannot be read as JSON data (a
 * getter that throws, a proxy, a cycle, more than `MAX_JSON_DEPTH` levels) is refused, and the copy
 * means what was validated is what the executor gets.
 */
export function parseToolInput(toolName: string, raw: unknown): JsonObject | ToolCallError {
  if (raw === undefined) return {};
  let value = raw;
  let where = "";
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return toolCallRefusal(
        "invalid-input",
        toolName,
        `Invalid input for tool ${toolName}: the input is not valid JSON (${describeThrown(error)}). Send the input as one JSON object, for example {"key": "value"}.`,
      );
    }
    where = " (after parsing the JSON text)";
  }
  if (typeof value !== "object" || value === null) return notAnObject(toolName, value, where);
  const copied = copyJson(value, "input");
  if (!copied.ok) {
    return toolCallRefusal(
      "invalid-input",
      toolName,
      `Invalid input for tool ${toolName}: ${copied.problem}. Send the arguments as one JSON object of plain values.`,
    );
  }
  return isRecord(copied.value) ? (copied.value as JsonObject) : notAnObject(toolName, copied.value, where);
}

function notAnObject(toolName: string, value: unknown, where: string): ToolCallError {
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return toolCallRefusal(
    "invalid-input",
    toolName,
    `Invalid input for tool ${toolName}: expected a JSON object, got ${kind}${where}. Send the arguments as one object whose keys are the parameter names.`,
  );
}
