// The `edit` tool: replaces an exact, unique match in a file, refusing files changed since they were read.
import { structuredPatch } from "diff";
import { ToolCallError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { type BuiltinContext, describeFsError, openRequiredFile, toolError } from "./builtin-context.js";
import { decodeText } from "./file-kind.js";
import { readUpTo } from "./open-inside.js";
import { snapshotOf } from "./read-tracker.js";
import { formatSize, shortenLine } from "./truncate.js";

/** The largest file `edit` changes; bigger files are for bash tools such as sed. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;
/** The most diff lines an edit result shows. */
export const MAX_DIFF_LINES = 120;

/** What `edit` reports to programs beside the text. */
export interface EditDetails {
  readonly path: string;
  readonly replacements: number;
  /** 1-based lines where the replaced text started, in the old file. */
  readonly lines: number[];
  /** The unified diff of the change (hunks only, no file header). */
  readonly diff: string;
}

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "The file to edit: relative to the workspace root, or absolute inside it." },
    oldText: {
      type: "string",
      minLength: 1,
      description:
        "The exact text to replace, copied from the file (whitespace and indentation included, without read's line-number prefixes). It must occur exactly once unless replaceAll is true: include enough surrounding lines to make it unique.",
    },
    newText: { type: "string", description: "The text to put in its place (may be empty to delete)." },
    replaceAll: {
      type: "boolean",
      description: "Replace every occurrence of oldText instead of exactly one. Default false.",
    },
  },
  required: ["path", "oldText", "newText"],
  additionalProperties: false,
} as const;

/** Builds the `edit` tool for one workspace. */
export function createEditTool(context: BuiltinContext): AgentTool {
  const { workspace, tracker } = context;
  return defineTool({
    name: "edit",
    title: "Edit file",
    description: [
      "Replace exact text in a file of the workspace: oldText must match the file exactly (whitespace included) and occur exactly once, unless replaceAll is true.",
      "Read the file first. If the file changed since you read it, the edit is refused: read it again.",
      "Returns a short diff of the change. Use write to create a file.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    executionMode: "sequential",
    async execute(input, { signal }): Promise<ToolResult<EditDetails>> {
      const target = await workspace.resolve("edit", input.path);
      const opened = await openRequiredFile(workspace, "edit", target);
      let bytes: Buffer | undefined;
      try {
        bytes = opened.stats.size > MAX_EDIT_BYTES ? undefined : await readUpTo(opened.handle, MAX_EDIT_BYTES);
      } catch (error) {
        throw toolError("edit", `Could not read ${target.display}: ${describeFsError(error, target.display)}.`);
      } finally {
        await opened.handle.close();
      }
      if (bytes === undefined) {
        throw toolError(
          "edit",
          `${target.display} is ${formatSize(opened.stats.size)}, over the ${formatSize(MAX_EDIT_BYTES)} limit for edit. Change it with bash (for example sed) instead.`,
        );
      }
      const raw = decodeText(bytes);
      if (raw === undefined) {
        throw toolError("edit", `${target.display} is a binary file, not UTF-8 text; edit only changes text files.`);
      }
      if (tracker.changedSince(target.real, snapshotOf(bytes))) {
        throw toolError(
          "edit",
          `${target.display} changed since you last read it (something other than these tools modified it). Nothing was changed. Read it again with read, then retry the edit with text from its current content.`,
        );
      }
      if (input.oldText === "") {
        // The schema says so too; this guards direct calls that skip validation.
        throw toolError(
          "edit",
          "oldText is empty. Give the exact text to replace; to create a file, use write.",
          "invalid-input",
        );
      }
      if (input.oldText === input.newText) {
        throw toolError("edit", "oldText and newText are the same, so there is nothing to change.", "invalid-input");
      }
      const format = detectFormat(raw);
      const content = format.body;
      const oldText = format.crlf ? input.oldText.replaceAll("\r\n", "\n") : input.oldText;
      const newText = format.crlf ? input.newText.replaceAll("\r\n", "\n") : input.newText;
      const positions = findAll(content, oldText);
      if (positions.length === 0) {
        throw toolError("edit", notFoundMessage(target.display, content, oldText, tracker.recall(target.real)));
      }
      const lines = linesAt(content, positions);
      if (positions.length > 1 && input.replaceAll !== true) {
        const shown = lines.slice(0, 20).join(", ") + (lines.length > 20 ? `, and ${lines.length - 20} more` : "");
        throw toolError(
          "edit",
          `oldText occurs ${positions.length} times in ${target.display} (starting at lines ${shown}). Nothing was changed. Include more surrounding lines in oldText so that it matches exactly once, or set replaceAll to true to replace every occurrence.`,
        );
      }
      const updated = content.split(oldText).join(newText);
      const output = (format.bom ? "\uFEFF" : "") + (format.crlf ? updated.replaceAll("\n", "\r\n") : updated);
      const outputBytes = Buffer.from(output, "utf8");
      try {
        await writeFileAtomic(workspace, target.real, outputBytes, { signal });
      } catch (error) {
        if (signal.aborted) {
          throw new ToolCallError("aborted", "edit", `The edit was aborted; ${target.display} was left as it was.`);
        }
        throw toolError(
          "edit",
          `Could not write ${target.display}: ${describeFsError(error, target.display)}. The file was left as it was.`,
        );
      }
      tracker.remember(target.real, snapshotOf(outputBytes));
      const diff = formatDiff(content, updated);
      const count = positions.length;
      const where = count === 1 ? `line ${lines[0]}` : `lines ${lines.join(", ")}`;
      return {
        content: [
          {
            type: "text",
            text: `Edited ${target.display}: replaced ${count} occurrence${count === 1 ? "" : "s"} (${where}).\n\n${diff.text}`,
          },
        ],
        details: { path: target.display, replacements: count, lines, diff: diff.full },
      };
    },
  });
}

interface TextFormat {
  readonly body: string;
  readonly bom: boolean;
  /** Every line ends with CRLF: matching runs on LF and CRLF is restored on write. */
  readonly crlf: boolean;
}

function detectFormat(raw: string): TextFormat {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const text = bom ? raw.slice(1) : raw;
  const lf = text.split("\n").length - 1;
  const crlf = lf > 0 && text.split("\r\n").length - 1 === lf;
  return { body: crlf ? text.replaceAll("\r\n", "\n") : text, bom, crlf };
}

function findAll(content: string, needle: string): number[] {
  const positions: number[] = [];
  let from = 0;
  for (;;) {
    const index = content.indexOf(needle, from);
    if (index === -1) return positions;
    positions.push(index);
    from = index + needle.length;
  }
}

/** The 1-based line of each offset (offsets ascending), in one pass over the text. */
function linesAt(content: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let newline = content.indexOf("\n");
  for (const offset of offsets) {
    while (newline !== -1 && newline < offset) {
      line++;
      newline = content.indexOf("\n", newline + 1);
    }
    lines.push(line);
  }
  return lines;
}

/** Why oldText was not found, with the nearest thing the model may have meant. */
function notFoundMessage(display: string, content: string, oldText: string, lastRead: unknown): string {
  const base = `oldText was not found in ${display}. Nothing was changed.`;
  const oldLines = oldText.split("\n");
  if (oldLines.filter((line) => line.trim() !== "").every((line) => /^\s*\d+\t/.test(line))) {
    return `${base} It seems to include read's line-number prefixes ("    12<tab>"); remove them and keep only the file's text.`;
  }
  const similar = findLooseMatch(content, oldLines);
  if (similar !== undefined) {
    return `${base} A similar text is at line ${similar}, differing only in whitespace or indentation: "${shortenLine(content.split("\n")[similar - 1]?.trim() ?? "", 120)}". Copy oldText exactly from the file (read it around line ${similar}), whitespace included.`;
  }
  const hint =
    lastRead === undefined
      ? "Read the file first and copy oldText exactly from it."
      : "Read the file again around the place you want to change and copy oldText exactly, whitespace included.";
  return `${base} ${hint}`;
}

/** The first line where oldText matches when each line's surrounding whitespace is ignored. */
function findLooseMatch(content: string, oldLines: readonly string[]): number | undefined {
  const wanted = oldLines.map((line) => line.trim());
  while (wanted.length > 0 && wanted[0] === "") wanted.shift();
  while (wanted.length > 0 && wanted[wanted.length - 1] === "") wanted.pop();
  if (wanted.length === 0) return undefined;
  const lines = content.split("\n").map((line) => line.trim());
  if (wanted.length === 1) {
    const squeeze = (text: string) => text.replace(/\s+/g, " ");
    const needle = squeeze(wanted[0] as string);
    const index = lines.findIndex((line) => squeeze(line).includes(needle));
    return index === -1 ? undefined : index + 1;
  }
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    if (wanted.every((line, offset) => lines[start + offset] === line)) return start + 1;
  }
  return undefined;
}

/** The change as unified-diff hunks, cut at `MAX_DIFF_LINES` for the model. */
export function formatDiff(before: string, after: string): { text: string; full: string } {
  const { start, oldPart, newPart } = changedRegion(before, after, 3);
  const patch = structuredPatch("a", "b", oldPart, newPart, undefined, undefined, { context: 3 });
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    // As in unified diffs (and the library's formatPatch), an empty side names the line before it.
    const oldStart = hunk.oldStart + start - (hunk.oldLines === 0 ? 1 : 0);
    const newStart = hunk.newStart + start - (hunk.newLines === 0 ? 1 : 0);
    lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) lines.push(line);
  }
  const full = lines.join("\n");
  if (lines.length <= MAX_DIFF_LINES) return { text: full, full };
  const shown = lines.slice(0, MAX_DIFF_LINES).map((line) => shortenLine(line));
  return {
    text: `${shown.join("\n")}\n[Diff cut at ${MAX_DIFF_LINES} of ${lines.length} lines; read the file to see the rest.]`,
    full,
  };
}

/**
 * The smallest slices of both texts, on line boundaries and with `context` lines around them, that
 * hold every difference, and how many lines precede them. Diffing only these keeps an edit of a
 * large file fast (the diff library costs microseconds per line of input).
 */
function changedRegion(
  before: string,
  after: string,
  context: number,
): { start: number; oldPart: string; newPart: string } {
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
  };
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
