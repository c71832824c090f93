// The libraries of the built-ins that only a call needs (re2js for grep and find patterns, node-html-markdown for
// web_fetch's HTML), loaded at that call rather than when the tools are made: `toolwire serve` lists its tools without
// them. They are loaded through their CommonJS builds, so the code that uses them stays synchronous.
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
 * node-html-markdown's HTML-to-Markdown translation, loaded at the first HTML page; `undefined` when the package is not
 * installed (web_fetch then shows the HTML as it came and says how to get Markdown).
 */
export function loadHtmlToMarkdown(): ((html: string) => string) | undefined {
  try {
    const { NodeHtmlMarkdown } = require(HTML_TO_MARKDOWN_PACKAGE) as typeof import("node-html-markdown");
    return (html) => NodeHtmlMarkdown.translate(html);
  } catch (error) {
    if (isPackageNotFound(error, HTML_TO_MARKDOWN_PACKAGE)) return undefined;
    throw error;
  }
}
