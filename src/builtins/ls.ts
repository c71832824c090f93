// The `ls` tool: one folder's entries, sorted, folders marked with "/", links shown without leaving the root.
import type { Dirent } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import {
  type BuiltinContext,
  describeFsError,
  specialFileMessage,
  statResolved,
  toolError,
} from "./builtin-context.js";
import { readFolderInside } from "./folder-inside.js";
import { describeSpecial } from "./open-inside.js";
import { formatSize, MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, shortenLine, truncateHead } from "./truncate.js";
import { boundPath } from "./workspace.js";

/** How many entries `ls` lists when the call names no limit. */
const DEFAULT_LS_LIMIT = 500;

/** What `ls` reports to programs beside the text. */
export interface LsDetails {
  readonly path: string;
  readonly entries: number;
  readonly shown: number;
  readonly truncated: boolean;
}

const inputSchema = {
  type: "object",
  properties: {
    path: {
      type: "string",
      description: "The folder to list: relative to the workspace root, or absolute inside it. Default: the root.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_OUTPUT_LINES,
      description: `The most entries to list. Default ${DEFAULT_LS_LIMIT}.`,
    },
  },
  additionalProperties: false,
} as const;

/** Builds the `ls` tool for one workspace. */
export function createLsTool(context: BuiltinContext): AgentTool {
  const { workspace } = context;
  return defineTool({
    effects: "none",
    name: "ls",
    title: "List folder",
    description: [
      'List a folder of the workspace: one entry per line, sorted by name, hidden files included, folders ending in "/".',
      "Symbolic links show where they point inside the workspace; links leading outside it are marked and not followed.",
      "Use find to search by name across folders.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: true },
    executionMode: "parallel",
    async execute(input): Promise<ToolResult<LsDetails>> {
      const target = await workspace.resolve("ls", input.path ?? ".");
      if (!target.exists) {
        throw toolError(
          "ls",
          `Folder not found: ${boundPath(target.display)}. List its parent folder to see what exists.`,
        );
      }
      const stats = await statResolved("ls", target);
      if (!stats.isDirectory()) {
        throw toolError(
          "ls",
          stats.isFile()
            ? `${target.display} is a file (${formatSize(stats.size)}), not a folder. Use read to see its content.`
            : specialFileMessage("ls", target.display, describeSpecial(stats)),
          "invalid-input",
        );
      }
      let entries: Dirent[];
      try {
        // Through a checked descriptor: a folder swapped for a link to elsewhere is not listed.
        entries = await readFolderInside(workspace, target.real);
      } catch (error) {
        throw toolError("ls", `Could not list ${target.display}: ${describeFsError(error, target.display)}.`);
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const limit = input.limit ?? DEFAULT_LS_LIMIT;
      const shown = entries.slice(0, limit);
      const lines = await Promise.all(shown.map((entry) => describeEntry(context, target.real, entry)));
      const cut = truncateHead(lines.join("\n"));
      let text = entries.length === 0 ? `${target.display} is an empty folder.` : cut.text;
      const listed = cut.truncated ? cut.keptLines : shown.length;
      if (listed < entries.length) {
        text += `\n\n[Showing ${listed} of ${entries.length} entries${cut.truncated ? ` (${MAX_OUTPUT_BYTES / 1024} KB limit)` : ""}. Raise limit (at most ${MAX_OUTPUT_LINES}) or use find with a pattern to narrow the list.]`;
      }
      return {
        content: [{ type: "text", text }],
        details: { path: target.display, entries: entries.length, shown: listed, truncated: listed < entries.length },
      };
    },
  });
}

async function describeEntry(context: BuiltinContext, folder: string, entry: Dirent): Promise<string> {
  const name = shortenLine(entry.name, 300);
  if (entry.isDirectory()) return `${name}/`;
  if (entry.isFile()) return name;
  if (entry.isSymbolicLink()) {
    try {
      const target = await realpath(join(folder, entry.name));
      if (!context.workspace.contains(target)) return `${name} -> (outside the workspace; not followed)`;
      const isFolder = (await stat(target)).isDirectory();
      return `${name}${isFolder ? "/" : ""} -> ${context.workspace.display(target)}${isFolder ? "/" : ""}`;
    } catch {
      return `${name} -> (dangling link; not followed)`;
    }
  }
  const what = entry.isFIFO()
    ? "named pipe"
    : entry.isSocket()
      ? "socket"
      : entry.isCharacterDevice()
        ? "character device"
        : entry.isBlockDevice()
          ? "block device"
          : "special file";
  return `${name} (${what}; the file tools do not open it)`;
}
