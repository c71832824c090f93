// The `find` tool: paths matching a glob under a folder, .gitignore respected, links never followed out of the root.
import { cutText } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { type BuiltinContext, MAX_REASON_CHARS, statResolved, toolError } from "./builtin-context.js";
import { compileGlob } from "./glob.js";
import { describeSpecial } from "./open-inside.js";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, truncateHead } from "./truncate.js";
import { type WalkReport, walkNotes, walkWorkspace } from "./walk.js";
import { boundPath, quotePath } from "./workspace.js";

/** How many paths `find` returns when the call names no limit. */
const DEFAULT_FIND_LIMIT = 1000;

/** What `find` reports to programs beside the text. */
export interface FindDetails {
  readonly matches: string[];
  readonly limitReached: boolean;
  readonly walk: WalkReport;
}

const inputSchema = {
  type: "object",
  properties: {
    pattern: {
      type: "string",
      minLength: 1,
      description:
        'A glob matched against paths relative to `path`. Without "/" it matches names at any depth ("*.ts", "README*"); with "/" the whole relative path ("src/**/*.test.ts"). Supports *, **, ?, [abc], [!abc], {a,b}, {1..3}, the extglobs @(a|b) ?(a|b) +(a|b) *(a|b), and a leading ! to negate.',
    },
    path: {
      type: "string",
      description: "The folder to search: relative to the workspace root, or absolute inside it. Default: the root.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_OUTPUT_LINES,
      description: `The most paths to return. Default ${DEFAULT_FIND_LIMIT}.`,
    },
  },
  required: ["pattern"],
  additionalProperties: false,
} as const;

/** Builds the `find` tool for one workspace. */
export function createFindTool(context: BuiltinContext): AgentTool {
  const { workspace } = context;
  return defineTool({
    effects: "none",
    name: "find",
    title: "Find files",
    description: [
      'Find files and folders in the workspace whose path matches a glob. Paths come back relative to the workspace root, sorted, folders ending in "/".',
      "Files ignored by .gitignore and the .git folder are skipped; hidden files are included.",
      "Use grep to search inside files.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: true },
    executionMode: "parallel",
    async execute(input, { signal }): Promise<ToolResult<FindDetails>> {
      const target = await workspace.resolve("find", input.path ?? ".");
      if (!target.exists) {
        throw toolError("find", `Folder not found: ${boundPath(target.display)}. Use ls to see which folders exist.`);
      }
      const kind = await statResolved("find", target);
      if (!kind.isDirectory()) {
        throw toolError(
          "find",
          `${target.display} is ${kind.isFile() ? "a file" : describeSpecial(kind)}, not a folder. Give find a folder to search in.`,
          "invalid-input",
        );
      }
      let matches: (path: string) => boolean;
      try {
        matches = compileGlob(input.pattern);
      } catch (error) {
        throw toolError(
          "find",
          `Invalid glob ${quotePath(input.pattern)}: ${cutText((error as Error).message, MAX_REASON_CHARS)}`,
          "invalid-input",
        );
      }
      const limit = input.limit ?? DEFAULT_FIND_LIMIT;
      const found: string[] = [];
      let limitReached = false;
      const walk = await walkWorkspace(workspace, target.real, {
        signal,
        visit(entry) {
          if (!matches(entry.fromStart)) return undefined;
          if (found.length >= limit) {
            limitReached = true;
            return "stop";
          }
          found.push(entry.kind === "folder" ? `${entry.display}/` : entry.display);
          return undefined;
        },
      });
      if (found.length === 0) {
        const ignored = walk.ignored > 0 ? ` (${walk.ignored} paths ignored by .gitignore were not searched)` : "";
        const notes = walkNotes(walk)
          .map((line) => `\n${line}`)
          .join("");
        return {
          content: [
            {
              type: "text",
              text: `No paths match ${JSON.stringify(input.pattern)} under ${target.display}${ignored}.${notes}`,
            },
          ],
          details: { matches: found, limitReached, walk },
        };
      }
      const cut = truncateHead(found.join("\n"));
      let text = cut.text;
      if (limitReached || cut.truncated) {
        const shown = cut.truncated ? cut.keptLines : found.length;
        text += `\n\n[Showing the first ${shown} matches${cut.truncated ? ` (${MAX_OUTPUT_BYTES / 1024} KB limit)` : " (limit reached)"}. Use a narrower pattern or path${limitReached ? `, or raise limit (at most ${MAX_OUTPUT_LINES})` : ""}.]`;
      }
      if (walk.limitReached) text += `\n[The search stopped after ${walk.visited} entries; use a narrower path.]`;
      for (const line of walkNotes(walk)) text += `\n${line}`;
      return { content: [{ type: "text", text }], details: { matches: found, limitReached, walk } };
    },
  });
}
