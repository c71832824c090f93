// grep's patterns: JavaScript regular-expression syntax run by RE2 (re2js), so matching a line takes linear time.
import type { RE2JS as CompiledPattern } from "re2js";
import { loadRe2js } from "./load-libraries.js";

/** A pattern that uses a feature RE2 cannot run in linear time (backreferences, lookahead). */
export class UnsupportedPatternError extends Error {}

/**
 * The largest compiled pattern accepted (RE2's program size, about one unit per character or class
 * matched). Matching costs up to the line's length times this when RE2 leaves its fast path, so the
 * bound keeps a 10 MB line to a few seconds at worst.
 */
const MAX_PATTERN_PROGRAM = 2000;

/** Tests one line. */
export type LineTest = (line: string) => boolean;

/**
 * Compiles grep's pattern into a linear-time line test. JavaScript syntax works where RE2 has the same
 * meaning: classes, `\d \w \s \b`, anchors, alternation, groups, lazy quantifiers, `(?<name>...)`,
 * `\p{L}`, `\u0041`, and captureless lookbehind. Throws `UnsupportedPatternError` for backreferences,
 * lookahead and a pattern over `MAX_PATTERN_PROGRAM`, and a plain `Error` (RE2's message, without
 * its prefix) for a malformed pattern.
 */
export function compileGrepPattern(pattern: string, options: { ignoreCase: boolean; literal: boolean }): LineTest {
  const RE2JS = loadRe2js();
  const flags = (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | RE2JS.LOOKBEHINDS;
  if (options.literal) {
    const re = RE2JS.compile(RE2JS.quote(pattern), flags);
    return (line) => re.test(line);
  }
  const unsupported = unsupportedFeature(pattern);
  if (unsupported !== undefined) throw new UnsupportedPatternError(unsupported);
  let re: CompiledPattern;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
  } catch (error) {
    throw new Error(describeSyntaxError((error as Error).message));
  }
  if (re.programSize() > MAX_PATTERN_PROGRAM) {
    throw new UnsupportedPatternError(
      `the pattern is too large to match quickly (${re.programSize()} steps compiled, at most ${MAX_PATTERN_PROGRAM}); use smaller repeat counts such as {1,50}, or a shorter pattern.`,
    );
  }
  return (line) => re.test(line);
}

/** The longest text `plainTextOf` offers: up to this length a byte search costs at most this factor over linear. */
const MAX_PLAIN_BYTES = 64;

/**
 * The UTF-8 bytes every line that `pattern` matches contains, when the pattern is plain text: `literal`,
 * or a regular expression without any special character, matched with case. A file without these bytes
 * has no matching line, so it need not be decoded or matched line by line. `undefined` otherwise (and
 * for text over 64 bytes, or holding a surrogate or U+FFFD, which decoding can produce from other bytes).
 */
export function plainTextOf(pattern: string, options: { ignoreCase: boolean; literal: boolean }): Buffer | undefined {
  if (options.ignoreCase || (!options.literal && /[\\^$.|?*+()[\]{}]/.test(pattern))) return undefined;
  if (/[\uD800-\uDFFF\uFFFD]/.test(pattern)) return undefined;
  const bytes = Buffer.from(pattern, "utf8");
  return bytes.length <= MAX_PLAIN_BYTES ? bytes : undefined;
}

const ALTERNATIVE =
  "match more broadly and filter the results, or use bash with grep -P (a backtracking engine) if you need it";

/** What in `pattern` (JavaScript syntax) RE2 cannot run, as a sentence; undefined when there is nothing. */
function unsupportedFeature(pattern: string): string | undefined {
  let inClass = false;
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === "\\") {
      const next = pattern[at + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) {
        return `the backreference \\${next} is not supported (patterns run in linear time, and a backreference cannot); ${ALTERNATIVE}.`;
      }
      if (!inClass && next === "k" && pattern[at + 2] === "<") {
        return `the named backreference \\k<...> is not supported (patterns run in linear time, and a backreference cannot); ${ALTERNATIVE}.`;
      }
      at++; // the escaped character is literal
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
    } else if (char === "(" && pattern[at + 1] === "?" && (pattern[at + 2] === "=" || pattern[at + 2] === "!")) {
      const kind = pattern[at + 2] === "=" ? "lookahead (?=...)" : "negative lookahead (?!...)";
      return `${kind} is not supported (patterns run in linear time); ${ALTERNATIVE}.`;
    }
  }
  return undefined;
}

/** RE2's syntax message without its generic prefix, with a hint where RE2 differs from JavaScript. */
function describeSyntaxError(message: string): string {
  const text = message.replace(/^error parsing regexp: /, "");
  if (text.startsWith("invalid repeat count"))
    return `${text} (a count, or nested counts multiplied, may be at most 1000)`;
  if (text.startsWith("invalid capture in lookbehind")) {
    return `${text} (a lookbehind may not hold a capturing group: write (?:...) inside it)`;
  }
  return text;
}
