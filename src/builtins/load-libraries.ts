// The libraries of the built-ins that only a call needs (re2js for grep and find patterns, diff for edit results),
// loaded at that call rather than when the tools are made: `toolwire serve` lists its tools without them. Both are
// loaded through their CommonJS builds, so the compilers that use them stay synchronous.
import { createRequire } from "node:module";
import type { RE2JS } from "re2js";

const require = createRequire(import.meta.url);

/** re2js's `RE2JS` (about 260 KB of code). Loads it at the first call. */
export function loadRe2js(): typeof RE2JS {
  return (require("re2js") as typeof import("re2js")).RE2JS;
}

/** diff's `structuredPatch`. Loads the library at the first call. */
export function loadStructuredPatch(): typeof import("diff").structuredPatch {
  return (require("diff") as typeof import("diff")).structuredPatch;
}
