// Output limits shared by the built-in tools: at most 2000 lines or 50 KB, keeping the head or the tail.

/** The most lines a built-in tool returns at once. */
export const MAX_OUTPUT_LINES = 2000;
/** The most bytes (UTF-8) a built-in tool returns at once. */
export const MAX_OUTPUT_BYTES = 50 * 1024;

/** What was kept of a text, and why the rest was cut. */
export interface Truncation {
  /** The kept text, whole lines joined with `\n` (one line may be cut when it alone is over the byte limit). */
  readonly text: string;
  /** Whether anything was cut. */
  readonly truncated: boolean;
  /** Which limit cut it. */
  readonly truncatedBy: "lines" | "bytes" | undefined;
  readonly totalLines: number;
  readonly keptLines: number;
  readonly totalBytes: number;
  readonly keptBytes: number;
  /** The one kept line was itself cut at the byte limit. */
  readonly lineCut: boolean;
}

/** Limits for `truncateHead` and `truncateTail`. */
interface TruncationLimits {
  readonly maxLines?: number;
  readonly maxBytes?: number;
}

/** Keeps the first lines of `text` that fit in the limits. */
export function truncateHead(text: string, limits: TruncationLimits = {}): Truncation {
  return truncateLines(splitLines(text), limits, "head");
}

/** Keeps the last lines of `text` that fit in the limits (for command output, where the end matters most). */
export function truncateTail(text: string, limits: TruncationLimits = {}): Truncation {
  return truncateLines(splitLines(text), limits, "tail");
}

/** Truncates lines already split, keeping the head or the tail. */
function truncateLines(lines: readonly string[], limits: TruncationLimits, keep: "head" | "tail"): Truncation {
  const maxLines = limits.maxLines ?? MAX_OUTPUT_LINES;
  const maxBytes = limits.maxBytes ?? MAX_OUTPUT_BYTES;
  const sizes = lines.map((line) => Buffer.byteLength(line, "utf8"));
  const totalBytes = sizes.reduce((sum, size) => sum + size, 0) + Math.max(0, lines.length - 1);
  const kept: string[] = [];
  let keptBytes = 0;
  let truncatedBy: "lines" | "bytes" | undefined;
  for (let step = 0; step < lines.length; step++) {
    const index = keep === "head" ? step : lines.length - 1 - step;
    if (kept.length >= maxLines) {
      truncatedBy = "lines";
      break;
    }
    const cost = (sizes[index] as number) + (kept.length > 0 ? 1 : 0);
    if (keptBytes + cost > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(lines[index] as string);
    keptBytes += cost;
  }
  let lineCut = false;
  if (kept.length === 0 && lines.length > 0 && truncatedBy === "bytes") {
    // A single line over the byte limit: keep what fits of it rather than nothing.
    const line = lines[keep === "head" ? 0 : lines.length - 1] as string;
    const cut = keep === "head" ? cutUtf8Head(line, maxBytes) : cutUtf8Tail(line, maxBytes);
    kept.push(cut);
    keptBytes = Buffer.byteLength(cut, "utf8");
    lineCut = true;
  }
  if (keep === "tail") kept.reverse();
  return {
    text: kept.join("\n"),
    truncated: truncatedBy !== undefined,
    truncatedBy,
    totalLines: lines.length,
    keptLines: kept.length,
    totalBytes,
    keptBytes,
    lineCut,
  };
}

/** Splits text into lines, dropping the empty line after a final newline. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A byte count in words a model reads easily. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutUtf8Head(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((buffer[end] as number) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutUtf8Tail(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return text;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && ((buffer[start] as number) & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString("utf8");
}

/** Cuts one long line for display (grep matches, ls names), saying so. */
export function shortenLine(line: string, maxChars = 500): string {
  return line.length <= maxChars ? line : `${line.slice(0, maxChars)}... [line cut at ${maxChars} characters]`;
}
