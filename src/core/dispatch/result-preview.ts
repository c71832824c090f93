// What the model sees of a result too large to send: its head and tail (whole JSON items where the text is JSON).

/** The most characters of a large result's head, and of its tail, that a preview shows. */
const PREVIEW_HEAD_CHARS = 2_000;
const PREVIEW_TAIL_CHARS = 1_000;

/** Texts above this size are previewed as plain text even when they are JSON: parsing them would copy them. */
const MAX_JSON_PREVIEW_CHARS = 8_000_000;

/** A preview: the text shown, and the 1-based lines of the saved file where its head ends and its tail starts. */
interface ResultPreview {
  /** What the preview says about the text's shape (JSON), or `""`. */
  readonly shape: string;
  /** The head and tail are whole JSON items of an array (not lines of the file). */
  readonly jsonItems: boolean;
  readonly head: string;
  readonly tail: string;
  /** The last line of the file the head shows (0 when it shows none). */
  readonly headEndLine: number;
  /** The first line of the file the tail shows. */
  readonly tailStartLine: number;
  readonly totalLines: number;
}

/**
 * The head and tail of `texts` as saved (joined with `\n`), each cut at a line break where one is near and never
 * more than `maxChars` together. Reads the texts without joining them: a 100 MB result is not copied here.
 */
export function previewResult(texts: readonly string[], maxChars: number): ResultPreview {
  const headChars = Math.max(0, Math.min(PREVIEW_HEAD_CHARS, Math.floor(maxChars * 0.6)));
  const tailChars = Math.max(0, Math.min(PREVIEW_TAIL_CHARS, Math.floor(maxChars * 0.3)));
  const totalLines = countLines(texts);
  const json = texts.length === 1 ? readJson(texts[0] as string) : undefined;
  if (Array.isArray(json)) {
    const { head, tail } = arrayItems(json, headChars, tailChars);
    return { shape: jsonShape(json), jsonItems: true, head, tail, headEndLine: 0, tailStartLine: 0, totalLines };
  }
  const shape = json === undefined ? "" : jsonShape(json);
  const head = cutHead(headOf(texts, headChars), headChars);
  const tail = cutTail(tailOf(texts, tailChars), tailChars);
  const headEndLine = head === "" ? 0 : lineCount(head);
  return {
    shape,
    jsonItems: false,
    head,
    tail,
    headEndLine,
    tailStartLine: totalLines - lineCount(tail) + 1,
    totalLines,
  };
}

/** The first items of an array that fit in `headChars` and the last that fit in `tailChars`, as JSON lines. */
function arrayItems(items: readonly unknown[], headChars: number, tailChars: number) {
  const head: string[] = [];
  let used = 0;
  let first = 0;
  for (; first < items.length; first++) {
    const line = JSON.stringify(items[first]) ?? "null";
    if (used + line.length > headChars && head.length > 0) break;
    head.push(line.length > headChars ? `${line.slice(0, headChars)}…` : line);
    used += line.length + 2;
  }
  const tail: string[] = [];
  used = 0;
  for (let last = items.length - 1; last >= first; last--) {
    const line = JSON.stringify(items[last]) ?? "null";
    if (used + line.length > tailChars) break;
    tail.unshift(line);
    used += line.length + 2;
  }
  return { head: head.join(",\n"), tail: tail.join(",\n") };
}

/** The first `chars` characters of the joined texts. */
function headOf(texts: readonly string[], chars: number): string {
  let head = "";
  for (const text of texts) {
    if (head.length >= chars) break;
    head += (head === "" ? "" : "\n") + text.slice(0, chars - head.length);
  }
  return head.slice(0, chars);
}

/** The last `chars` characters of the joined texts. */
function tailOf(texts: readonly string[], chars: number): string {
  let tail = "";
  for (let index = texts.length - 1; index >= 0; index--) {
    if (tail.length >= chars) break;
    const text = texts[index] as string;
    tail = text.slice(Math.max(0, text.length - (chars - tail.length))) + (tail === "" ? "" : "\n") + tail;
  }
  return tail.slice(Math.max(0, tail.length - chars));
}

/** The head ending at its last line break, when that keeps at least half of it. */
function cutHead(head: string, chars: number): string {
  const newline = head.lastIndexOf("\n");
  return head.length >= chars && newline >= chars / 2 ? head.slice(0, newline) : head;
}

/** The tail starting after its first line break, when that keeps at least half of it. */
function cutTail(tail: string, chars: number): string {
  const newline = tail.indexOf("\n");
  return tail.length >= chars && newline !== -1 && newline <= chars / 2 ? tail.slice(newline + 1) : tail;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines++;
  return lines;
}

function countLines(texts: readonly string[]): number {
  let lines = 0;
  for (const text of texts) lines += lineCount(text);
  return lines;
}

/** The text's JSON value when it is a JSON object or array small enough to parse, else `undefined`. */
function readJson(text: string): unknown {
  if (text.length > MAX_JSON_PREVIEW_CHARS) return undefined;
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A sentence on a JSON value's shape (`It is a JSON array of 120,000 items.`). */
function jsonShape(value: unknown): string {
  if (Array.isArray(value)) return `It is a JSON array of ${value.length.toLocaleString("en-US")} items.`;
  if (typeof value !== "object" || value === null) return "";
  const keys = Object.entries(value as Record<string, unknown>);
  const shown = keys.slice(0, 20).map(([key, item]) => `${JSON.stringify(key)} (${describeValue(item)})`);
  const more = keys.length > shown.length ? `, and ${keys.length - shown.length} more` : "";
  return `It is a JSON object with ${keys.length} keys: ${shown.join(", ")}${more}.`;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `${value.length.toLocaleString("en-US")} items`;
  if (value === null) return "null";
  if (typeof value === "string") return `text of ${value.length.toLocaleString("en-US")} characters`;
  if (typeof value === "object") return `object of ${Object.keys(value).length} keys`;
  return typeof value;
}
