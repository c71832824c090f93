// The `edit` tool: replaces an exact, unique match in a file, refusing files changed since they were read.
import { ToolCallError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { type BuiltinContext, describeFsError, openRequiredFile, toolError } from "./builtin-context.js";
import { formatDiff } from "./edit-diff.js";
import { decodeText } from "./file-kind.js";
import { readUpTo } from "./open-inside.js";
import { snapshotOf } from "./read-tracker.js";
import { createTextSearch, findAllOccurrences } from "./text-search.js";
import { formatSize, MAX_OUTPUT_LINES, shortenLine, truncateHead } from "./truncate.js";

/** The largest file `edit` changes; bigger files are for bash tools such as sed. */
const MAX_EDIT_BYTES = 10 * 1024 * 1024;
/** How many line numbers a message lists before saying how many more there are. */
const LISTED_LINES = 20;
/** How many characters of lines the near-match search compares before giving up. */
const LOOSE_MATCH_BUDGET = 20_000_000;

/** What `edit` reports to programs beside the text. */
export interface EditDetails {
  readonly path: string;
  readonly replacements: number;
  /** 1-based lines where the replaced text started, in the old file (the first 2000). */
  readonly lines: number[];
  /** The unified diff of the change (hunks only, no file header), cut at 2000 lines or 50 KB. */
  readonly diff: string;
  /** `diff` was cut at 2000 lines or 50 KB. */
  readonly diffCut: boolean;
  /**
   * False when the change was too large to diff line by line: `diff` then shows the changed region removed, then added.
   */
  readonly diffMinimal: boolean;
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
    effects: "local",
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
      const positions = findAllOccurrences(content, oldText);
      if (positions.length === 0) {
        throw toolError("edit", notFoundMessage(target.display, content, oldText, tracker.recall(target.real)));
      }
      const lines = linesAt(content, positions);
      if (positions.length > 1 && input.replaceAll !== true) {
        throw toolError(
          "edit",
          `oldText occurs ${positions.length} times in ${target.display} (starting at lines ${listLines(lines)}). Nothing was changed. Include more surrounding lines in oldText so that it matches exactly once, or set replaceAll to true to replace every occurrence.`,
        );
      }
      const updated = replaceAt(content, positions, oldText.length, newText);
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
      const details = truncateHead(diff.full);
      const count = positions.length;
      const where = count === 1 ? `line ${lines[0]}` : `lines ${listLines(lines)}`;
      return {
        content: [
          {
            type: "text",
            text: `Edited ${target.display}: replaced ${count} occurrence${count === 1 ? "" : "s"} (${where}).\n\n${diff.text}`,
          },
        ],
        details: {
          path: target.display,
          replacements: count,
          lines: lines.slice(0, MAX_OUTPUT_LINES),
          diff: details.text,
          diffCut: details.truncated,
          diffMinimal: diff.minimal,
        },
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

/** `content` with the `length` characters at each of `positions` (ascending, apart) replaced by `replacement`. */
function replaceAt(content: string, positions: readonly number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const position of positions) {
    parts.push(content.slice(from, position), replacement);
    from = position + length;
  }
  parts.push(content.slice(from));
  return parts.join("");
}

/** Line numbers for a message: the first few, then how many more. */
function listLines(lines: readonly number[]): string {
  const shown = lines.slice(0, LISTED_LINES).join(", ");
  return lines.length > LISTED_LINES ? `${shown}, and ${lines.length - LISTED_LINES} more` : shown;
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

/**
 * The first line where oldText matches when each line's surrounding whitespace is ignored, or
 * undefined. Bounded: only places of the wanted line rarest in the file can start a match, and
 * the search gives up after comparing `LOOSE_MATCH_BUDGET` characters.
 */
function findLooseMatch(content: string, oldLines: readonly string[]): number | undefined {
  const wanted = oldLines.map((line) => line.trim());
  while (wanted.length > 0 && wanted[0] === "") wanted.shift();
  while (wanted.length > 0 && wanted[wanted.length - 1] === "") wanted.pop();
  if (wanted.length === 0) return undefined;
  const lines = content.split("\n").map((line) => line.trim());
  if (wanted.length === 1) {
    const squeeze = (text: string) => text.replace(/\s+/g, " ");
    const search = createTextSearch(squeeze(wanted[0] as string));
    const index = lines.findIndex((line) => search(squeeze(line)) !== -1);
    return index === -1 ? undefined : index + 1;
  }
  if (wanted.length > lines.length) return undefined;
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  let anchor = 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (const [offset, line] of wanted.entries()) {
    const count = counts.get(line) ?? 0;
    if (count === 0) return undefined; // a line found nowhere: no loose match at all
    if (count < fewest) {
      fewest = count;
      anchor = offset;
    }
  }
  let budget = LOOSE_MATCH_BUDGET;
  for (let at = anchor; at + wanted.length - anchor <= lines.length; at++) {
    if (lines[at] !== wanted[anchor]) continue;
    const start = at - anchor;
    let offset = 0;
    for (; offset < wanted.length; offset++) {
      budget -= (wanted[offset] as string).length + 1;
      if (lines[start + offset] !== wanted[offset]) break;
    }
    if (offset === wanted.length) return start + 1;
    if (budget <= 0) return undefined;
  }
  return undefined;
}
