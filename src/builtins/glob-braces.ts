// Brace expansion for globs ({a,b}, {1..3}), bounded so that a pattern cannot expand without end.

/** The most patterns one glob's braces may expand to. */
const MAX_BRACE_EXPANSIONS = 1000;
/** The most characters all the expanded patterns together may hold. */
const MAX_EXPANDED_CHARS = 100_000;

/**
 * The patterns a glob's braces stand for, in order: `{a,b}` gives one per alternative (nested
 * braces too), `{1..3}` / `{a..c}` one per number or letter (`{01..10}` keeps the width). A brace
 * with neither a top-level comma nor a range (`{a}`, `{}`), or one never closed, is plain text.
 * Throws when the braces stand for more than `MAX_BRACE_EXPANSIONS` patterns (or too much text).
 */
export function expandBraces(glob: string): string[] {
  const results: string[] = [];
  let chars = 0;
  const expand = (text: string, from: number): void => {
    const brace = findBrace(text, from);
    if (brace === undefined) {
      chars += text.length;
      if (results.length >= MAX_BRACE_EXPANSIONS || chars > MAX_EXPANDED_CHARS) throw tooMany();
      results.push(text);
      return;
    }
    const before = text.slice(0, brace.open);
    const after = text.slice(brace.close + 1);
    for (const alternative of brace.alternatives) {
      // Everything before the brace holds no expandable brace, so the search resumes after it.
      expand(before + alternative + after, before.length);
    }
  };
  expand(glob, 0);
  return results;
}

function tooMany(): Error {
  return new Error(
    `the braces expand to more than ${MAX_BRACE_EXPANSIONS} patterns; use fewer or shorter {...} lists, or several calls`,
  );
}

interface Brace {
  readonly open: number;
  readonly close: number;
  readonly alternatives: readonly string[];
}

/**
 * Visits each character of `text` from `from` on that is brace syntax's business: escaped characters
 * and whole character classes are skipped. Stops at, and returns, the first value `visit` returns.
 */
function scanGlob<T>(text: string, from: number, visit: (char: string, at: number) => T | undefined): T | undefined {
  for (let at = from; at < text.length; at++) {
    const char = text[at] as string;
    if (char === "\\") {
      at++;
      continue;
    }
    if (char === "[") {
      const close = classEnd(text, at);
      if (close !== -1) {
        at = close;
        continue;
      }
    }
    const found = visit(char, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first expandable brace at or after `from`, skipping escapes, classes and plain-text braces. */
function findBrace(text: string, from: number): Brace | undefined {
  return scanGlob(text, from, (char, at) => (char === "{" ? braceAt(text, at) : undefined));
}

/** The brace opening at `open` when it expands: its closing index and alternatives. */
function braceAt(text: string, open: number): Brace | undefined {
  let depth = 0;
  const commas: number[] = [];
  const found = scanGlob(text, open, (char, at): Brace | null | undefined => {
    if (char === "{") depth++;
    else if (char === "," && depth === 1) commas.push(at);
    else if (char === "}" && --depth === 0) return closeBrace(text, open, at, commas) ?? null;
    return undefined;
  });
  return found ?? undefined; // null: the brace closed but does not expand
}

/**
 * The brace from `open` to `close` as alternatives (its top-level commas) or a range; undefined when it is plain text.
 */
function closeBrace(text: string, open: number, close: number, commas: readonly number[]): Brace | undefined {
  if (commas.length > 0) {
    const cuts = [open, ...commas, close];
    return {
      open,
      close,
      alternatives: cuts.slice(1).map((cut, index) => text.slice((cuts[index] as number) + 1, cut)),
    };
  }
  const range = expandRange(text.slice(open + 1, close));
  return range === undefined ? undefined : { open, close, alternatives: range };
}

/** `1..3`, `3..1`, `01..10` or `a..e` as its values; undefined when `body` is no range. */
function expandRange(body: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (numbers !== null) {
    const [, first = "", last = ""] = numbers;
    const start = Number(first);
    const end = Number(last);
    if (Math.abs(end - start) >= MAX_BRACE_EXPANSIONS) throw tooMany();
    const padded = /^-?0\d/.test(first) || /^-?0\d/.test(last);
    const width = padded ? Math.max(first.replace("-", "").length, last.replace("-", "").length) : 0;
    const step = start <= end ? 1 : -1;
    const values: string[] = [];
    for (let value = start; value !== end + step; value += step) {
      const digits = String(Math.abs(value)).padStart(width, "0");
      values.push(value < 0 ? `-${digits}` : digits);
    }
    return values;
  }
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  if (letters !== null) {
    const start = (letters[1] as string).charCodeAt(0);
    const end = (letters[2] as string).charCodeAt(0);
    const step = start <= end ? 1 : -1;
    const values: string[] = [];
    for (let code = start; code !== end + step; code += step) values.push(String.fromCharCode(code));
    return values;
  }
  return undefined;
}

/** The index of the `]` closing a class opened at `open`, or -1 (then the `[` is plain text). */
function classEnd(text: string, open: number): number {
  let at = open + 1;
  if (text[at] === "!" || text[at] === "^") at++;
  if (text[at] === "]") at++;
  for (; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === "]") return at;
  }
  return -1;
}
