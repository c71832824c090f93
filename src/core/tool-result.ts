// Tool results: normalizing what an executor returned, and error results written for the model.
import { copyJson } from "./copy-json.js";
import { isRecord } from "./json.js";
import type { ContentBlock, ToolResult } from "./types.js";

/** A result with one text block and `isError: true`. */
export function errorResult(text: string, details?: unknown): ToolResult {
  return details === undefined
    ? { content: [{ type: "text", text }], isError: true }
    : { content: [{ type: "text", text }], details, isError: true };
}

/** Why `value` is not a valid content block, or `undefined` when it is. */
export function describeContentProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "a content block is not an object";
  if (value.type === "text") return typeof value.text === "string" ? undefined : "a text block has no string `text`";
  if (value.type === "image") {
    return typeof value.data === "string" && typeof value.mimeType === "string"
      ? undefined
      : "an image block needs string `data` (base64) and `mimeType`";
  }
  return `unknown content block type ${JSON.stringify(value.type) ?? "undefined"} (expected "text" or "image")`;
}

/**
 * An executor's return value as a `ToolResult`, or a string saying why it is not one. Never throws:
 * the result is a fresh plain-data copy (see `copyJson`), so a getter, a proxy or a cycle in what the
 * tool returned can neither break this call nor anything that reads the result later.
 */
export function normalizeToolResult(value: unknown): ToolResult | string {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (typeof value !== "object" || value === null) {
    return `expected a string or { content: [...] }, got ${value === null ? "null" : typeof value}`;
  }
  const copied = copyJson(value, "result");
  if (!copied.ok) return copied.problem;
  const result = copied.value;
  if (!isRecord(result)) return "expected a string or { content: [...] }, got an array";
  const { content } = result;
  if (!Array.isArray(content)) return "the result has no `content` array";
  for (let index = 0; index < content.length; index++) {
    const problem = describeContentProblem(content[index]);
    if (problem !== undefined) return `content[${index}]: ${problem}`;
  }
  if (result.isError !== undefined && typeof result.isError !== "boolean") return "`isError` is not a boolean";
  const normalized: ToolResult = { content: content as ContentBlock[] };
  if (result.details !== undefined) normalized.details = result.details;
  if (result.isError !== undefined) normalized.isError = result.isError;
  return normalized;
}

/** The content blocks of a patch, if they are valid. */
export function isContentArray(value: unknown): value is ContentBlock[] {
  return Array.isArray(value) && value.every((block) => describeContentProblem(block) === undefined);
}
