// A model's tool input is untrusted: an object, JSON text encoding one, or anything else.
import { copyJson, MAX_JSON_DEPTH } from "../copy-json.js";
import { describeThrown } from "../errors.js";
import { isRecord } from "../json.js";
import type { JsonObject } from "../types.js";

/**
 * The input as a fresh plain-data object, or the message of its `invalid-input` refusal, saying what was
 * wrong. `undefined` counts as `{}`. Never throws: an input that cannot be read as JSON data (a
 * getter that throws, a proxy, a cycle, more than `MAX_JSON_DEPTH` levels) is refused, and the copy
 * means what was validated is what the executor gets.
 */
export function parseToolInput(toolName: string, raw: unknown): JsonObject | string {
  if (raw === undefined) return {};
  if (typeof raw === "string") return parseInputText(toolName, raw);
  if (typeof raw !== "object" || raw === null) return notAnObject(toolName, raw, "");
  const copied = copyJson(raw, "input");
  if (!copied.ok) {
    return `Invalid input for tool ${toolName}: ${copied.problem}. Send the arguments as one JSON object of plain values.`;
  }
  return isRecord(copied.value) ? (copied.value as JsonObject) : notAnObject(toolName, copied.value, "");
}

/**
 * JSON text as an object. What `JSON.parse` makes is plain data already (no getters, no cycles), so
 * it is not copied; only its depth is checked, on the text, before parsing.
 */
function parseInputText(toolName: string, text: string): JsonObject | string {
  if (text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return `Invalid input for tool ${toolName}: the JSON text nests more than ${MAX_JSON_DEPTH} levels deep. Send the arguments as one JSON object of plain values.`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `Invalid input for tool ${toolName}: the input is not valid JSON (${describeThrown(error)}). Send the input as one JSON object, for example {"key": "value"}.`;
  }
  return isRecord(parsed) ? (parsed as JsonObject) : notAnObject(toolName, parsed, " (after parsing the JSON text)");
}

function notAnObject(toolName: string, value: unknown, where: string): string {
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return `Invalid input for tool ${toolName}: expected a JSON object, got ${kind}${where}. Send the arguments as one object whose keys are the parameter names.`;
}

/**
 * Whether JSON text opens more than `max` arrays or objects at once, found without parsing it
 * (JSON.parse spends tens of milliseconds on text nested tens of thousands of levels deep). String
 * contents are skipped with `indexOf`, so long strings cost almost nothing; text of at most `2 * max`
 * characters cannot nest that deep and is not scanned.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index);
      if (index === -1) return false; // unterminated: JSON.parse reports it
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opening at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
