// The `write` tool: creates or overwrites a file atomically, creating missing parent folders inside the root.
import { lstat } from "node:fs/promises";
import { ToolCallError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { type BuiltinContext, describeFsError, specialFileMessage, toolError } from "./builtin-context.js";
import { describeSpecial } from "./open-inside.js";
import { snapshotOf } from "./read-tracker.js";
import { formatSize } from "./truncate.js";
import { boundPath } from "./workspace.js";

/** What `write` reports to programs beside the text. */
export interface WriteDetails {
  readonly path: string;
  readonly bytes: number;
  readonly lines: number;
  readonly created: boolean;
}

const inputSchema = {
  type: "object",
  properties: {
    path: {
      type: "string",
      description:
        "The file to write: relative to the workspace root, or absolute inside it. Missing folders are created.",
    },
    content: { type: "string", description: "The whole new content of the file." },
  },
  required: ["path", "content"],
  additionalProperties: false,
} as const;

/** Builds the `write` tool for one workspace. */
export function createWriteTool(context: BuiltinContext): AgentTool {
  const { workspace, tracker } = context;
  return defineTool({
    effects: "local",
    name: "write",
    title: "Write file",
    description: [
      "Create a file, or replace a file's whole content, in the workspace. Missing parent folders are created.",
      "The write is atomic: the file holds the old content or the new, never a part.",
      "To change part of an existing file, prefer edit.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    executionMode: "sequential",
    async execute(input, { signal }): Promise<ToolResult<WriteDetails>> {
      const target = await workspace.resolve("write", input.path);
      const existing = target.exists ? await lstat(target.real).catch(() => undefined) : undefined;
      if (existing?.isDirectory() === true) {
        throw toolError("write", `${target.display} is a folder; give the path of a file inside it.`, "invalid-input");
      }
      if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) {
        throw toolError(
          "write",
          specialFileMessage("write", target.display, describeSpecial(existing)),
          "invalid-input",
        );
      }
      const bytes = Buffer.from(input.content, "utf8");
      try {
        await writeFileAtomic(workspace, target.real, bytes, { signal, createFolders: true });
      } catch (error) {
        if (signal.aborted) {
          throw new ToolCallError(
            "aborted",
            "write",
            `The write was aborted; ${boundPath(target.display)} was left as it was.`,
          );
        }
        throw toolError(
          "write",
          `Could not write ${boundPath(target.display)}: ${describeFsError(error, boundPath(target.display))}. The file was left as it was.`,
        );
      }
      tracker.remember(target.real, snapshotOf(bytes));
      const lines =
        input.content === "" ? 0 : input.content.split("\n").length - (input.content.endsWith("\n") ? 1 : 0);
      const verb = target.exists ? "Overwrote" : "Created";
      return {
        content: [
          {
            type: "text",
            text: `${verb} ${target.display} (${formatSize(bytes.length)}, ${lines} line${lines === 1 ? "" : "s"}).`,
          },
        ],
        details: { path: target.display, bytes: bytes.length, lines, created: !target.exists },
      };
    },
  });
}
