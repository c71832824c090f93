// Globs for find and grep: without "/" a pattern matches names at any depth, with "/" the whole relative path.
import type { RE2JS as CompiledPattern } from "re2js";
import { expandBraces } from "./glob-braces.js";
import { loadRe2js } from "./load-libraries.js";

/** The longest glob accepted; a longer one is refused rather than compiled. */
const MAX_GLOB_LENGTH = 2000;

/**
 * A matcher for paths relative to a search folder (`/`-separated). Supports `*` and `?` (never across
 * "/"), `**` as a whole segment (any number of folders), `[abc]`, `[a-z]`, `[!a]` / `[^a]`,
 * `[[:alpha:]]`, `{a,b}` and `{1..3}` braces (at most 1000 alternatives), the extglobs `@(a|b)`,
 * `?(a|b)`, `+(a|b)` and `*(a|b)`, `\` escapes, and a leading `!` that negates the whole pattern.
 * The glob becomes one RE2 expression, so matching takes time linear in the path, whatever the
 * pattern. Throws an Error saying what to change on a malformed or unsupported pattern (such as
 * the negated extglob `!(...)`).
 */
export function compileGlob(pattern: string): (path: string) => boolean {
  if (pattern.length > MAX_GLOB_LENGTH) {
    throw new Error(
      `the glob is ${pattern.length} characters long, over the ${MAX_GLOB_LENGTH}-character limit; use a shorter pattern`,
    );
  }
  let cleaned = pattern.trim();
  const negated = cleaned.startsWith("!") && !cleaned.startsWith("!(");
  if (negated) cleaned = cleaned.slice(1);
  cleaned = cleaned.replace(/^(\.\/)+/, "").replace(/^\/+/, "");
  const basename = !cleaned.includes("/");
  const RE2JS = loadRe2js();
  const source = expandBraces(cleaned)
    .map((glob) => `(?:${translateGlob(glob, false)})`)
    .join("|");
  let re: CompiledPattern;
  try {
    re = RE2JS.compile(source, RE2JS.DOTALL);
  } catch (error) {
    throw new Error((error as Error).message.replace(/^error parsing regexp: /, ""));
  }
  return (path) => {
    const subject = basename ? path.slice(path.lastIndexOf("/") + 1) : path;
    return re.testExact(subject) !== negated;
  };
}

const ANY_IN_SEGMENT = "[^/]*";
/** "**\/": any number of folders, none included. */
const ANY_FOLDERS = "(?:[^/]*/)*";

/** One glob without braces as RE2 source; `inner` inside an extglob, where `**` is a plain `*`. */
function translateGlob(glob: string, inner: boolean): string {
  const RE2JS = loadRe2js();
  const out: string[] = [];
  let at = 0;
  while (at < glob.length) {
    const char = glob[at] as string;
    const next = glob[at + 1];
    if (char === "\\") {
      out.push(RE2JS.quote(next ?? "\\"));
      at += 2;
    } else if ("?*+@!".includes(char) && next === "(") {
      const close = closingParen(glob, at + 1);
      if (close === -1) {
        out.push(RE2JS.quote(char));
        at++;
        continue;
      }
      if (char === "!") {
        throw new Error(
          "the negated extglob !(...) is not supported; list what to keep with @(a|b) or {a,b}, or start the whole pattern with ! to leave out what it matches",
        );
      }
      const alternatives = splitTopLevel(glob.slice(at + 2, close), "|").map((part) => translateGlob(part, true));
      const quantifier = char === "@" ? "" : char;
      out.push(`(?:${alternatives.join("|")})${quantifier}`);
      at = close + 1;
    } else if (char === "*") {
      let end = at;
      while (glob[end] === "*") end++;
      if (glob[end] === "(" && closingParen(glob, end) !== -1) end--; // the last star opens an extglob *(...)
      const segmentStart = at === 0 || glob[at - 1] === "/";
      const segmentEnd = end === glob.length || glob[end] === "/";
      if (inner || end - at !== 2 || !segmentStart || !segmentEnd) {
        out.push(ANY_IN_SEGMENT);
      } else if (end < glob.length) {
        out.push(ANY_FOLDERS);
        end++;
      } else {
        while (out[out.length - 1] === ANY_FOLDERS) out.pop(); // "a/**/**" is "a/**"
        if (out[out.length - 1] === "/") {
          out.pop(); // "a/**" also matches "a" itself
          out.push("(?:/.*)?");
        } else {
          out.push(".*");
        }
      }
      at = end;
    } else if (char === "?") {
      out.push("[^/]");
      at++;
    } else if (char === "[") {
      const parsed = translateClass(glob, at);
      if (parsed === undefined) {
        out.push("\\[");
        at++;
      } else {
        out.push(parsed.source);
        at = parsed.end;
      }
    } else {
      out.push(RE2JS.quote(char));
      at++;
    }
  }
  return out.join("");
}

/** A bracket expression starting at `open` as an RE2 class, or undefined when it is not closed. */
function translateClass(glob: string, open: number): { source: string; end: number } | undefined {
  let at = open + 1;
  const negated = glob[at] === "!" || glob[at] === "^";
  if (negated) at++;
  let body = "";
  let first = true;
  while (at < glob.length) {
    const char = glob[at] as string;
    if (char === "]" && !first) return { source: negated ? `[^/${body}]` : `[${body}]`, end: at + 1 };
    first = false;
    if (char === "\\" && at + 1 < glob.length) {
      body += escapeClassChar(glob[at + 1] as string);
      at += 2;
    } else if (char === "[" && glob[at + 1] === ":") {
      const close = glob.indexOf(":]", at + 2);
      if (close === -1 || !/^[a-z]+$/.test(glob.slice(at + 2, close))) {
        body += "\\[";
        at++;
      } else {
        body += glob.slice(at, close + 2); // a POSIX class such as [:alpha:], which RE2 knows
        at = close + 2;
      }
    } else {
      body += char === "-" ? "-" : escapeClassChar(char);
      at++;
    }
  }
  return undefined;
}

/** A character for inside an RE2 class: ASCII punctuation escaped, everything else as is. */
function escapeClassChar(char: string): string {
  return /[!-/:-@[-`{-~]/.test(char) ? `\\${char}` : char;
}

/** The index of the `)` closing the `(` at `open`, skipping escapes, classes and nested parentheses; -1 if none. */
function closingParen(glob: string, open: number): number {
  let depth = 0;
  for (let at = open; at < glob.length; at++) {
    const char = glob[at];
    if (char === "\\") at++;
    else if (char === "[") at = (translateClass(glob, at)?.end ?? at + 1) - 1;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return at;
  }
  return -1;
}

/** Splits on `separator` outside escapes, classes and parentheses. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === "\\") at++;
    else if (char === "[") at = (translateClass(text, at)?.end ?? at + 1) - 1;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(from, at));
      from = at + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}
