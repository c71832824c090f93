// The `read` tool: a text file with line numbers (a window of it for large files), or an image.
import { createHash } from "node:crypto";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { type BuiltinContext, openRequiredFile, toolError } from "./builtin-context.js";
import { looksBinary, SNIFF_BYTES, sniffImageMimeType } from "./file-kind.js";
import { readUpTo } from "./open-inside.js";
import { cutUtf8Head, formatSize, MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate.js";

/** The largest image `read` returns (what the main model providers accept per image). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const CHUNK_BYTES = 64 * 1024;

/** What `read` reports to programs beside the text. */
export interface ReadDetails {
  readonly path: string;
  readonly kind: "text" | "image";
  readonly size: number;
  readonly totalLines?: number;
  readonly startLine?: number;
  readonly endLine?: number;
  readonly truncated?: boolean;
  readonly mimeType?: string;
}

const inputSchema = {
  type: "object",
  properties: {
    path: {
      type: "string",
      description: 'The file to read: relative to the workspace root (e.g. "src/index.ts"), or absolute inside it.',
    },
    offset: {
      type: "integer",
      minimum: 1,
      description: "The 1-based line to start at. Default 1. Use it to continue where a cut output ended.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      description: `The most lines to return. Default and maximum ${MAX_OUTPUT_LINES}.`,
    },
  },
  required: ["path"],
  additionalProperties: false,
} as const;

/** Builds the `read` tool for one workspace. */
export function createReadTool(context: BuiltinContext): AgentTool {
  const { workspace, tracker } = context;
  return defineTool({
    effects: "none",
    name: "read",
    title: "Read file",
    description: [
      "Read a file in the workspace.",
      `Text files come back with line numbers ("     12\\t<text>"), at most ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB per call; a note at the end gives the offset to continue from.`,
      "Images (PNG, JPEG, GIF, WebP) come back as images. Binary files are refused: inspect them with bash.",
      "Read a file before editing it; the line-number prefix is not part of the file.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: true },
    executionMode: "parallel",
    async execute(input, { signal }): Promise<ToolResult<ReadDetails>> {
      const target = await workspace.resolve("read", input.path);
      // The schema bounds both; clamping guards direct calls that skip validation.
      const offset = Math.max(1, Math.floor(input.offset ?? 1));
      const limit = Math.max(1, Math.min(Math.floor(input.limit ?? MAX_OUTPUT_LINES), MAX_OUTPUT_LINES));
      const { handle, stats } = await openRequiredFile(workspace, "read", target);
      try {
        const head = Buffer.alloc(Math.min(SNIFF_BYTES, stats.size));
        const { bytesRead } = await handle.read(head, 0, head.length, 0);
        const sniff = head.subarray(0, bytesRead);
        const mimeType = sniffImageMimeType(sniff);
        if (mimeType !== undefined) {
          if (stats.size > MAX_IMAGE_BYTES) {
            throw toolError(
              "read",
              `${target.display} is an image of ${formatSize(stats.size)}, over the ${formatSize(MAX_IMAGE_BYTES)} limit for images. Make a smaller copy with bash (for example with ImageMagick's convert -resize) and read that.`,
            );
          }
          // Capped: the file may have grown since it was measured.
          const bytes = await readUpTo(handle, MAX_IMAGE_BYTES);
          if (bytes === undefined)
            throw toolError(
              "read",
              `${target.display} grew past ${formatSize(MAX_IMAGE_BYTES)} while it was read; try again.`,
            );
          tracker.remember(target.real, {
            size: bytes.length,
            sha256: createHash("sha256").update(bytes).digest("hex"),
          });
          return {
            content: [
              { type: "text", text: `Image ${target.display} (${mimeType}, ${formatSize(bytes.length)})` },
              { type: "image", data: bytes.toString("base64"), mimeType },
            ],
            details: { path: target.display, kind: "image", size: bytes.length, mimeType },
          };
        }
        if (looksBinary(sniff)) {
          throw toolError(
            "read",
            `${target.display} is a binary file (${formatSize(stats.size)}), not UTF-8 text, so it is not shown. Inspect it with bash, for example \`file ${quoteForShell(target.display)}\` or \`xxd ${quoteForShell(target.display)} | head\`.`,
          );
        }
        const window = await readLineWindow(handle, offset, limit, signal);
        tracker.remember(target.real, { size: window.size, sha256: window.sha256 });
        return renderWindow(target.display, offset, window);
      } finally {
        await handle.close();
      }
    },
  });
}

interface LineWindow {
  readonly lines: string[];
  readonly totalLines: number;
  readonly size: number;
  readonly sha256: string;
  readonly stoppedBy: "lines" | "bytes" | "end";
  readonly lineCut: boolean;
}

/**
 * Streams the file once: hashes every byte, counts every line, and keeps the numbered lines from
 * `offset` while they fit in `limit` lines and the byte budget. Never holds more than one window.
 */
async function readLineWindow(
  handle: import("node:fs/promises").FileHandle,
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<LineWindow> {
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8");
  const lines: string[] = [];
  let budget = MAX_OUTPUT_BYTES;
  let stoppedBy: LineWindow["stoppedBy"] = "end";
  let lineCut = false;
  let lineNumber = 1; // the line the next byte belongs to
  let pending: Buffer[] = []; // bytes of the current line, kept only inside the window
  let pendingBytes = 0;
  const keep = (bytes: Buffer) => {
    // A line longer than the budget is cut anyway: do not hold more of it than can be shown.
    if (pendingBytes > MAX_OUTPUT_BYTES) return;
    pending.push(bytes);
    pendingBytes += bytes.length;
  };
  let size = 0;
  let lastByte = -1;
  const collecting = () => stoppedBy === "end" && lineNumber >= offset;
  const takeLine = (bytes: Buffer) => {
    let text = decoder.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const numbered = `${String(lineNumber).padStart(6)}\t${text}`;
    const cost = Buffer.byteLength(numbered, "utf8") + (lines.length > 0 ? 1 : 0);
    if (cost > budget) {
      if (lines.length === 0) {
        lines.push(cutUtf8Head(numbered, budget));
        lineCut = true;
      }
      stoppedBy = "bytes";
      return;
    }
    lines.push(numbered);
    budget -= cost;
    if (lines.length >= limit) stoppedBy = "lines";
  };
  const chunk = Buffer.alloc(CHUNK_BYTES);
  for (;;) {
    signal.throwIfAborted();
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    const data = chunk.subarray(0, bytesRead);
    hash.update(data);
    size += bytesRead;
    lastByte = data[bytesRead - 1] as number;
    let start = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, start);
      if (newline === -1) {
        if (collecting()) keep(Buffer.from(data.subarray(start)));
        break;
      }
      if (collecting()) {
        keep(data.subarray(start, newline));
        takeLine(Buffer.concat(pending));
      }
      pending = [];
      pendingBytes = 0;
      lineNumber++;
      start = newline + 1;
    }
  }
  // A last line without a final newline still counts.
  const totalLines = size === 0 ? 0 : lastByte === 0x0a ? lineNumber - 1 : lineNumber;
  if (lastByte !== 0x0a && size > 0 && collecting()) takeLine(Buffer.concat(pending));
  return { lines, totalLines, size, sha256: hash.digest("hex"), stoppedBy, lineCut };
}

function renderWindow(display: string, offset: number, window: LineWindow): ToolResult<ReadDetails> {
  const { lines, totalLines, size } = window;
  const base = { path: display, kind: "text" as const, size, totalLines };
  if (totalLines === 0) {
    return { content: [{ type: "text", text: `${display} is empty.` }], details: { ...base, truncated: false } };
  }
  if (offset > totalLines) {
    throw toolError(
      "read",
      `offset ${offset} is past the end of ${display}, which has ${totalLines} line${totalLines === 1 ? "" : "s"}. Use an offset from 1 to ${totalLines}.`,
      "invalid-input",
    );
  }
  const endLine = offset + lines.length - 1;
  const more = endLine < totalLines;
  let note = "";
  if (window.lineCut) {
    note = `\n\n[Line ${offset} is longer than ${MAX_OUTPUT_BYTES / 1024} KB and was cut. See the rest with bash, for example \`sed -n '${offset}p' ${quoteForShell(display)} | cut -c 1-20000\`.${more ? ` Use offset=${endLine + 1} to continue.` : ""}]`;
  } else if (more) {
    const why =
      window.stoppedBy === "bytes"
        ? ` (${MAX_OUTPUT_BYTES / 1024} KB limit)`
        : lines.length >= MAX_OUTPUT_LINES
          ? ` (${MAX_OUTPUT_LINES}-line limit)`
          : "";
    note = `\n\n[Showing lines ${offset}-${endLine} of ${totalLines}${why}. Use offset=${endLine + 1} to continue.]`;
  }
  return {
    content: [{ type: "text", text: lines.join("\n") + note }],
    details: { ...base, startLine: offset, endLine, truncated: more || window.lineCut },
  };
}

/** A path quoted for a shell command line in a hint. */
function quoteForShell(path: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
