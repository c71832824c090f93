// cutForPage: a value as text for the page (JSON, or the string itself), cut to a number of UTF-8 bytes.
import { describeThrown } from "../core/errors.js";
import type { CutText } from "./types.js";

/** The most bytes of one input, result or details the inspector keeps for the page: 64 KB. */
export const DEFAULT_MAX_PAGE_BYTES = 65_536;

/**
 * `value` as text (a string as it is, anything else as indented JSON; a value JSON cannot write says so), its
 * whole size in UTF-8 bytes, and the text cut to at most `maxBytes` bytes (never inside a character). Never throws.
 */
export function cutForPage(value: unknown, maxBytes = DEFAULT_MAX_PAGE_BYTES): CutText {
  const text = typeof value === "string" ? value : jsonOf(value);
  return cutText(text, maxBytes);
}

/** A text cut to at most `maxBytes` UTF-8 bytes, with its whole size. */
export function cutText(text: string, maxBytes: number): CutText {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= maxBytes) return { text, bytes, cut: false };
  // At most 3 bytes per UTF-16 unit: no more than maxBytes units are ever needed.
  const head = Buffer.from(text.slice(0, maxBytes), "utf8").subarray(0, maxBytes).toString("utf8");
  // A character cut in two decodes as U+FFFD at the end.
  return { text: head.endsWith("\uFFFD") ? head.slice(0, -1) : head, bytes, cut: true };
}

function jsonOf(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (error) {
    return `(not JSON: ${describeThrown(error)})`;
  }
}
