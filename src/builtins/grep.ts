// The `grep` tool: a regular expression over the workspace's text files, ripgrep-like, .gitignore respected.
import { setImmediate as nextTurn } from "node:timers/promises";
import { cutText, ToolCallError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import {
  type BuiltinContext,
  MAX_REASON_CHARS,
  specialFileMessage,
  statResolved,
  toolError,
} from "./builtin-context.js";
import { looksBinary, SNIFF_BYTES } from "./file-kind.js";
import { compileGlob } from "./glob.js";
import { compileGrepPattern, type LineTest, plainTextOf, UnsupportedPatternError } from "./grep-pattern.js";
import { createFolderFileReader, describeSpecial, type FolderFileRead, readFileInside } from "./open-inside.js";
import { formatSize, MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, shortenLine, truncateHead } from "./truncate.js";
import { type WalkReport, walkNotes, walkWorkspace } from "./walk.js";
import { boundPath, quotePath, type Workspace } from "./workspace.js";

/** How many matching lines `grep` returns when the call names no limit. */
const DEFAULT_GREP_LIMIT = 200;
/** Files larger than this are skipped (and counted). */
const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
/** The most context lines around a match. */
const MAX_GREP_CONTEXT = 10;
/** The search gives the event loop a turn (so an abort or a timeout can act) after this many characters. */
const YIELD_EVERY_CHARS = 256 * 1024;

/** What `grep` reports to programs beside the text. */
export interface GrepDetails {
  readonly matches: number;
  readonly filesWithMatches: number;
  readonly filesSearched: number;
  readonly skippedBinary: number;
  readonly skippedLarge: number;
  readonly limitReached: boolean;
  readonly walk?: WalkReport;
}

const inputSchema = {
  type: "object",
  properties: {
    pattern: {
      type: "string",
      minLength: 1,
      description:
        'A regular expression in JavaScript syntax, matched against each line in linear time (e.g. "function\\\\s+\\\\w+", "TODO|FIXME"). Backreferences (\\\\1) and lookahead ((?=, (?!) are not supported. Set literal to true to search for the text as is.',
    },
    path: {
      type: "string",
      description:
        "A folder or file to search: relative to the workspace root, or absolute inside it. Default: the root.",
    },
    glob: {
      type: "string",
      description:
        'Only search files whose path (relative to `path`) matches this glob: without "/" it matches names at any depth ("*.ts", "*.{js,mjs}"), with "/" the whole relative path ("src/**/*.ts").',
    },
    ignoreCase: { type: "boolean", description: "Match without regard to case. Default false." },
    literal: { type: "boolean", description: "Treat pattern as plain text, not a regular expression. Default false." },
    context: {
      type: "integer",
      minimum: 0,
      maximum: MAX_GREP_CONTEXT,
      description: `Lines of context to show before and after each match. Default 0, at most ${MAX_GREP_CONTEXT}.`,
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_OUTPUT_LINES,
      description: `The most matching lines to return. Default ${DEFAULT_GREP_LIMIT}.`,
    },
  },
  required: ["pattern"],
  additionalProperties: false,
} as const;

/** Builds the `grep` tool for one workspace. */
export function createGrepTool(context: BuiltinContext): AgentTool {
  const { workspace } = context;
  return defineTool({
    effects: "none",
    name: "grep",
    title: "Search file contents",
    description: [
      "Search the text files of the workspace for a regular expression, like ripgrep.",
      'Each matching line prints as "<path>:<line>: <text>" (path relative to the workspace root); with context, surrounding lines print as "<path>-<line>- <text>" and separate groups are split by "--".',
      "Files ignored by .gitignore, the .git folder, binary files and files over 10 MB are skipped.",
      "Patterns run in linear time (RE2): backreferences and lookahead are refused; lookbehind without capturing groups works.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: true },
    executionMode: "parallel",
    async execute(input, { signal }): Promise<ToolResult<GrepDetails>> {
      const options = { ignoreCase: input.ignoreCase === true, literal: input.literal === true };
      let test: LineTest;
      try {
        test = compileGrepPattern(input.pattern, options);
      } catch (error) {
        if (error instanceof UnsupportedPatternError) {
          throw toolError(
            "grep",
            `Unsupported regular expression ${quotePath(input.pattern)}: ${cutText(error.message, MAX_REASON_CHARS)}`,
            "invalid-input",
          );
        }
        throw toolError(
          "grep",
          `Invalid regular expression ${quotePath(input.pattern)}: ${cutText((error as Error).message, MAX_REASON_CHARS)}. Escape special characters with a backslash, or set literal to true.`,
          "invalid-input",
        );
      }
      let matchesGlob: ((path: string) => boolean) | undefined;
      if (input.glob !== undefined && input.glob.trim() !== "") {
        try {
          matchesGlob = compileGlob(input.glob);
        } catch (error) {
          throw toolError(
            "grep",
            `Invalid glob ${quotePath(input.glob)}: ${cutText((error as Error).message, MAX_REASON_CHARS)}`,
            "invalid-input",
          );
        }
      }
      const target = await workspace.resolve("grep", input.path ?? ".");
      if (!target.exists) {
        throw toolError("grep", `Not found: ${boundPath(target.display)}. Use ls or find to see which paths exist.`);
      }
      const search = createSearch(
        workspace,
        test,
        plainTextOf(input.pattern, options),
        input.context ?? 0,
        input.limit ?? DEFAULT_GREP_LIMIT,
        signal,
      );
      let walk: WalkReport | undefined;
      const kind = await statResolved("grep", target);
      if (!kind.isDirectory() && !kind.isFile()) {
        throw toolError("grep", specialFileMessage("grep", target.display, describeSpecial(kind)), "invalid-input");
      }
      if (kind.isDirectory()) {
        walk = await walkWorkspace(workspace, target.real, {
          signal,
          visit(entry) {
            if (entry.kind !== "file" || (matchesGlob !== undefined && !matchesGlob(entry.fromStart))) return undefined;
            const stop = search.file(entry);
            if (typeof stop === "boolean") return stop ? "stop" : undefined;
            return stop.then((reached) => (reached ? "stop" : undefined));
          },
        });
      } else {
        await search.file(target);
      }
      return search.result(input.pattern, target.display, walk);
    },
  });
}

/** Where one file to search is: its real path and display, and on a walk on Linux its path through its open folder. */
interface SearchedFile {
  readonly real: string;
  readonly display: string;
  readonly pinned?: string | undefined;
}

/** Where a file's line scan is, so that it can go on after the event loop had a turn. */
interface ScanState {
  index: number;
  lastPrinted: number;
  found: boolean;
}

/** The search state of one call: counts, the output lines, and the match limit. */
function createSearch(
  workspace: Workspace,
  test: LineTest,
  plainText: Buffer | undefined,
  contextLines: number,
  limit: number,
  signal: AbortSignal,
) {
  const output: string[] = [];
  const readInFolder = createFolderFileReader(MAX_GREP_FILE_BYTES);
  let matches = 0;
  let filesWithMatches = 0;
  let filesSearched = 0;
  let skippedBinary = 0;
  let skippedLarge = 0;
  let limitReached = false;
  let charsSinceTurn = 0;

  /** Ends the search when the call was aborted. */
  const checkAbort = (): void => {
    if (signal.aborted) throw new ToolCallError("aborted", "grep", "The search was aborted.");
  };
  /** Gives the event loop a turn (so a timeout or an abort can act), then checks for an abort. */
  const pause = async (): Promise<void> => {
    charsSinceTurn = 0;
    await nextTurn();
    checkAbort();
  };

  /** Scans lines from `at.index` on: "pause" when the event loop is due a turn, "limit" at the match limit. */
  const scan = (lines: readonly string[], display: string, at: ScanState): "done" | "pause" | "limit" => {
    for (; at.index < lines.length; at.index++) {
      if (charsSinceTurn >= YIELD_EVERY_CHARS) return "pause";
      const index = at.index;
      const line = lineAt(lines, index);
      charsSinceTurn += line.length + 1;
      if (!test(line)) continue;
      if (!at.found) {
        at.found = true;
        filesWithMatches++;
        if (output.length > 0 && contextLines > 0) output.push("--");
      }
      const from = Math.max(0, index - contextLines, at.lastPrinted + 1);
      if (contextLines > 0 && at.lastPrinted >= 0 && from > at.lastPrinted + 1) output.push("--");
      for (let before = from; before < index; before++) {
        output.push(`${display}-${before + 1}- ${shortenLine(lineAt(lines, before))}`);
      }
      output.push(`${display}:${index + 1}: ${shortenLine(line)}`);
      at.lastPrinted = index;
      matches++;
      // Trailing context: lines after the match that are not matches themselves (those print as matches).
      const until = Math.min(lines.length - 1, index + contextLines);
      let next = index + 1;
      while (next <= until && !test(lineAt(lines, next))) {
        output.push(`${display}-${next + 1}- ${shortenLine(lineAt(lines, next))}`);
        at.lastPrinted = next;
        next++;
      }
      if (matches >= limit) {
        limitReached = true;
        return "limit";
      }
      at.index = next - 1;
    }
    return "done";
  };

  /** Searches what was read of one file; true when the match limit was reached. */
  const searchRead = (read: FolderFileRead, display: string): boolean | Promise<boolean> => {
    if (read.kind === "large") skippedLarge++;
    if (read.kind !== "read") return false;
    const bytes = read.bytes;
    if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
      skippedBinary++;
      return false;
    }
    filesSearched++;
    // Plain text absent from the file's bytes is on none of its lines: no need to decode or match them.
    if (plainText !== undefined && !bytes.includes(plainText)) {
      charsSinceTurn += bytes.length;
      return false;
    }
    const lines = bytes.toString("utf8").split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const at: ScanState = { index: 0, lastPrinted: -1, found: false };
    const first = scan(lines, display, at);
    if (first !== "pause") return first === "limit";
    return (async () => {
      for (;;) {
        await pause();
        const step = scan(lines, display, at);
        if (step !== "pause") return step === "limit";
      }
    })();
  };

  /** Searches one file; true when the match limit was reached. Synchronous for a walked file until a pause is due. */
  const file = (found: SearchedFile): boolean | Promise<boolean> => {
    checkAbort();
    if (charsSinceTurn >= YIELD_EVERY_CHARS) return pause().then(() => file(found));
    // A walked file by one name under its open, checked folder; any other opened and checked on its own.
    // Either way without blocking, and a FIFO, a device or a path swapped to lead outside is not read.
    if (found.pinned !== undefined) return searchRead(readInFolder(found.pinned), found.display);
    return readFileInside(workspace, found.real, MAX_GREP_FILE_BYTES).then((read) => searchRead(read, found.display));
  };

  return {
    file,

    result(pattern: string, display: string, walk: WalkReport | undefined): ToolResult<GrepDetails> {
      const details: GrepDetails = {
        matches,
        filesWithMatches,
        filesSearched,
        skippedBinary,
        skippedLarge,
        limitReached,
        ...(walk === undefined ? {} : { walk }),
      };
      const skipped: string[] = [];
      if (skippedBinary > 0) skipped.push(`${skippedBinary} binary file${skippedBinary === 1 ? "" : "s"}`);
      if (skippedLarge > 0) {
        skipped.push(`${skippedLarge} file${skippedLarge === 1 ? "" : "s"} over ${formatSize(MAX_GREP_FILE_BYTES)}`);
      }
      if (matches === 0) {
        if (walk !== undefined && walk.ignored > 0) skipped.push(`${walk.ignored} paths ignored by .gitignore`);
        const note =
          (skipped.length > 0 ? ` Skipped: ${skipped.join(", ")}.` : "") +
          (walk === undefined
            ? ""
            : walkNotes(walk)
                .map((line) => `\n${line}`)
                .join(""));
        return {
          content: [
            {
              type: "text",
              text: `No matches for ${JSON.stringify(pattern)} in ${display} (${filesSearched} file${filesSearched === 1 ? "" : "s"} searched).${note}`,
            },
          ],
          details,
        };
      }
      const cut = truncateHead(output.join("\n"));
      const notes: string[] = [];
      if (cut.truncated) {
        notes.push(
          `[Output cut at ${cut.keptLines} of ${cut.totalLines} lines (${cut.truncatedBy === "bytes" ? `${MAX_OUTPUT_BYTES / 1024} KB` : `${MAX_OUTPUT_LINES}-line`} limit). Narrow the pattern, path or glob, or use less context.]`,
        );
      }
      if (limitReached) {
        notes.push(
          `[Stopped at ${matches} matches (the limit). There may be more: narrow the pattern, path or glob, or raise limit (at most ${MAX_OUTPUT_LINES}).]`,
        );
      }
      if (walk?.limitReached) notes.push(`[The search stopped after ${walk.visited} entries; use a narrower path.]`);
      if (walk !== undefined) notes.push(...walkNotes(walk));
      if (skipped.length > 0) notes.push(`[Skipped: ${skipped.join(", ")}.]`);
      const text = notes.length === 0 ? cut.text : `${cut.text}\n\n${notes.join("\n")}`;
      return { content: [{ type: "text", text }], details };
    },
  };
}

/** A line without its carriage return, as matched and printed. */
function lineAt(lines: readonly string[], index: number): string {
  const line = lines[index] as string;
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
