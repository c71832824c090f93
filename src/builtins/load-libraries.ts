// The library of the built-ins that only a call needs (re2js for grep and find patterns), loaded at that call rather
// than when the tools are made: `toolwire serve` lists its tools without it. It is loaded through its CommonJS build,
// so the compilers that use it stay synchronous.
import { createRequire } from "node:module";
import type { RE2JS } from "re2js";

const require = createRequire(import.meta.url);

/** re2js's `RE2JS` (about 260 KB of code). Loads it at the first call. */
export function loadRe2js(): typeof RE2JS {
  return (require("re2js") as typeof import("re2js")).RE2JS;
}
