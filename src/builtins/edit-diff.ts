// The diff an edit result shows: unified hunks of the changed region, bounded in time and in size.
import { diffLines, splitLines } from "./diff-lines.js";
import { MAX_OUTPUT_BYTES, shortenLine, truncateHead } from "./truncate.js";

/** The most diff lines an edit result shows the model. */
const MAX_DIFF_LINES = 120;
/**
 * The most line edits the diff looks for. The diff's cost grows with the square of this
 * (about 0.1 s at 1000 on a slow machine); past it the region is shown as removed, then added.
 */
const MAX_DIFF_EDIT_LENGTH = 1000;
/** A second bound on the diff, in milliseconds, for a slower machine. */
const DIFF_TIMEOUT_MS = 1000;
const CONTEXT = 3;

/** An edit's diff. */
interface EditDiff {
  /** For the model: at most `MAX_DIFF_LINES` lines, each shortened, within 50 KB, with a note when cut. */
  readonly text: string;
  /** All hunks, without file headers: applied to the old text they give the new one. */
  readonly full: string;
  /**
   * True when `full` is a line-by-line diff; false when the change was too large for that and
   * `full` shows the changed region as one hunk of removed lines, then added lines.
   */
  readonly minimal: boolean;
}

/**
 * The change from `before` to `after` as unified-diff hunks with 3 lines of context. Only the
 * changed region (between the equal first and last lines) is diffed, with at most `maxEditLength`
 * line edits; a larger change falls back to one hunk replacing the region, so the cost stays
 * linear in the texts' size.
 */
export function formatDiff(before: string, after: string, maxEditLength = MAX_DIFF_EDIT_LENGTH): EditDiff {
  const region = changedRegion(before, after, CONTEXT);
  const hunks = diffLines(region.oldPart, region.newPart, {
    context: CONTEXT,
    maxEditLength,
    deadline: Date.now() + DIFF_TIMEOUT_MS,
  });
  const lines: string[] = [];
  if (hunks === undefined) {
    lines.push(...regionHunk(region));
  } else {
    for (const hunk of hunks) {
      // As in unified diffs (and the diff package's formatPatch), an empty side names the line before it.
      const oldStart = hunk.oldStart + region.start - (hunk.oldLines === 0 ? 1 : 0);
      const newStart = hunk.newStart + region.start - (hunk.newLines === 0 ? 1 : 0);
      lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
      for (const line of hunk.lines) lines.push(line);
    }
  }
  const full = lines.join("\n");
  const minimal = hunks !== undefined;
  const notes: string[] = [];
  if (!minimal) {
    notes.push(
      `[The change is too large to diff line by line (${countLines(region.oldPart)} old lines, ${countLines(region.newPart)} new lines in the changed region), so it shows as removed, then added.]`,
    );
  }
  const shown = lines.slice(0, MAX_DIFF_LINES).map((line) => shortenLine(line));
  const cut = truncateHead(shown.join("\n"), { maxBytes: MAX_OUTPUT_BYTES - 1024 });
  if (lines.length > cut.keptLines) {
    notes.push(`[Diff cut at ${cut.keptLines} of ${lines.length} lines; read the file to see the rest.]`);
  }
  const text = [cut.text, ...notes].join("\n");
  return { text, full, minimal };
}

interface Region {
  /** How many lines precede the region. */
  readonly start: number;
  readonly oldPart: string;
  readonly newPart: string;
  /** Equal lines at the start and at the end of both parts (the context kept around the change). */
  readonly leading: number;
  readonly trailing: number;
}

/**
 * The smallest slices of both texts, on line boundaries and with `context` lines around them, that
 * hold every difference, and how many lines precede them. Diffing only these keeps an edit of a
 * large file fast (the diff costs microseconds per line of input).
 */
function changedRegion(before: string, after: string, context: number): Region {
  const oldStarts = lineStarts(before);
  const newStarts = lineStarts(after);
  let prefix = 0; // whole equal lines at the start
  while (
    prefix < oldStarts.length - 1 &&
    prefix < newStarts.length - 1 &&
    lineOf(before, oldStarts, prefix) === lineOf(after, newStarts, prefix)
  ) {
    prefix++;
  }
  let suffix = 0; // whole equal lines at the end, not overlapping the prefix
  while (
    suffix < oldStarts.length - 1 - prefix &&
    suffix < newStarts.length - 1 - prefix &&
    lineOf(before, oldStarts, oldStarts.length - 2 - suffix) === lineOf(after, newStarts, newStarts.length - 2 - suffix)
  ) {
    suffix++;
  }
  const start = Math.max(0, prefix - context);
  const keepSuffix = Math.max(0, suffix - context);
  const oldEnd = oldStarts.length - 1 - keepSuffix;
  const newEnd = newStarts.length - 1 - keepSuffix;
  return {
    start,
    oldPart: before.slice(oldStarts[start], oldStarts[oldEnd]),
    newPart: after.slice(newStarts[start], newStarts[newEnd]),
    leading: prefix - start,
    trailing: suffix - keepSuffix,
  };
}

/** The region as one hunk: its leading context, every old line removed, every new line added, its trailing context. */
function regionHunk(region: Region): string[] {
  const oldLines = splitLines(region.oldPart);
  const newLines = splitLines(region.newPart);
  if (region.oldPart === region.newPart) return [];
  const oldStart = region.start + 1 - (oldLines.length === 0 ? 1 : 0);
  const newStart = region.start + 1 - (newLines.length === 0 ? 1 : 0);
  const out = [`@@ -${oldStart},${oldLines.length} +${newStart},${newLines.length} @@`];
  const push = (mark: string, line: string) => {
    out.push(mark + (line.endsWith("\n") ? line.slice(0, -1) : line));
    if (!line.endsWith("\n")) out.push("\\ No newline at end of file");
  };
  for (const line of oldLines.slice(0, region.leading)) push(" ", line);
  for (const line of oldLines.slice(region.leading, oldLines.length - region.trailing)) push("-", line);
  for (const line of newLines.slice(region.leading, newLines.length - region.trailing)) push("+", line);
  for (const line of oldLines.slice(oldLines.length - region.trailing)) push(" ", line);
  return out;
}

function countLines(text: string): number {
  return splitLines(text).length;
}

/** Offsets where each line starts, plus the text's length as a last entry. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    if (at + 1 < text.length) starts.push(at + 1);
  }
  starts.push(text.length);
  return starts;
}

/** Line `index` with its newline, if any. */
function lineOf(text: string, starts: readonly number[], index: number): string {
  return text.slice(starts[index], starts[index + 1]);
}
