// locateJsonError: where and why JSON text is malformed, as line and column, for messages a person can act on.

/** Where JSON text first goes wrong: 1-based line and column, 0-based offset, and what was expected there. */
interface JsonErrorLocation {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

class Stop {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

const MAX_DEPTH = 1000;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Scans JSON text and returns where it first breaks the grammar, or `undefined` when it is valid JSON. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let i = 0;
  const stop = (message: string, at = i): never => {
    throw new Stop(message, at);
  };
  const blank = () => {
    while (i < text.length) {
      const ch = text[i];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") i++;
      else if (ch === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) stop("comments are not allowed in JSON");
      else break;
    }
  };
  const describe = (at: number) => (at >= text.length ? "the end of the text" : `${JSON.stringify(text[at])}`);
  const string = () => {
    const start = i;
    i++;
    while (i < text.length) {
      const ch = text[i] as string;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === "\\") {
        const next = text[i + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) stop("bad \\u escape: expected 4 hex digits");
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
          i += 2;
        } else {
          stop(`bad escape \\${next ?? ""} in a string`);
        }
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) stop("a string cannot hold a raw line break or control character (write \\n)");
      i++;
    }
    stop("unterminated string: missing its closing quote", start);
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) stop("nested too deeply");
    blank();
    const ch = text[i];
    if (ch === "{") {
      object(depth);
      return;
    }
    if (ch === "[") {
      array(depth);
      return;
    }
    if (ch === '"') {
      string();
      return;
    }
    if (ch === "'") stop("strings must use double quotes");
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (match === null) stop("invalid number");
      i += (match as RegExpExecArray)[0].length;
      return;
    }
    stop(`expected a value (object, array, string, number, true, false or null), found ${describe(i)}`);
  };
  const object = (depth: number) => {
    i++;
    blank();
    if (text[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      blank();
      if (text[i] !== '"') stop(`expected a property name in double quotes, found ${describe(i)}`);
      string();
      blank();
      if (text[i] !== ":") stop(`expected ":" after the property name, found ${describe(i)}`);
      i++;
      value(depth + 1);
      blank();
      if (text[i] === "}") {
        i++;
        return;
      }
      if (text[i] !== ",") stop(`expected "," or "}" after a property value, found ${describe(i)}`);
      const comma = i;
      i++;
      blank();
      if (text[i] === "}") stop('trailing comma: remove the "," before "}"', comma);
    }
  };
  const array = (depth: number) => {
    i++;
    blank();
    if (text[i] === "]") {
      i++;
      return;
    }
    for (;;) {
      value(depth + 1);
      blank();
      if (text[i] === "]") {
        i++;
        return;
      }
      if (text[i] !== ",") stop(`expected "," or "]" after an array element, found ${describe(i)}`);
      const comma = i;
      i++;
      blank();
      if (text[i] === "]") stop('trailing comma: remove the "," before "]"', comma);
    }
  };
  try {
    value(0);
    blank();
    if (i < text.length) stop(`unexpected ${describe(i)} after the JSON value`);
    return undefined;
  } catch (thrown) {
    if (!(thrown instanceof Stop)) throw thrown;
    return { offset: thrown.offset, ...lineAndColumn(text, thrown.offset), message: thrown.message };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === "\n") {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
