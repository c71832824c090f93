// The libraries of the built-ins that only a call needs (re2js for grep and find patterns, node-html-markdown for
// web_fetch's HTML), loaded at that call rather than when the tools are made: `toolwire serve` lists its tools without
// them. re2js is loaded through its CommonJS build, so the compilers that use it stay synchronous; node-html-markdown
// is only located here, and loaded by the worker that converts.
import { createRequire } from "node:module";
import type { RE2JS } from "re2js";
import { isPackageNotFound } from "../load-optional.js";

const require = createRequire(import.meta.url);

/** re2js's `RE2JS` (about 260 KB of code). Loads it at the first call. */
export function loadRe2js(): typeof RE2JS {
  return (require("re2js") as typeof import("re2js")).RE2JS;
}

/** The package web_fetch turns HTML into Markdown with (an optional peer). */
export const HTML_TO_MARKDOWN_PACKAGE = "node-html-markdown";

/**
 * Where node-html-markdown's CommonJS entry is, for a worker to load; `undefined` when the package is not installed
 * (web_fetch then shows HTML as it came and says how to get Markdown).
 */
export function resolveHtmlToMarkdown(): string | undefined {
  try {
    return require.resolve(HTML_TO_MARKDOWN_PACKAGE);
  } catch (error) {
    if (isPackageNotFound(error, HTML_TO_MARKDOWN_PACKAGE)) return undefined;
    throw error;
  }
}
