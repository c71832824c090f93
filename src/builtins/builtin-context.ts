// What every built-in tool shares: the workspace guard, the read tracker, the options, and its error helpers.
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { ToolCallError } from "../core/errors.js";
import type { ReadTracker } from "./read-tracker.js";
import type { Workspace, WorkspacePath } from "./workspace.js";

/** The state one `createBuiltinTools` call gives all its tools. */
export interface BuiltinContext {
  readonly workspace: Workspace;
  readonly tracker: ReadTracker;
  /** `bash`'s timeout when the call names none. */
  readonly bashTimeoutMs: number;
  /** How long `bash` waits after SIGTERM before SIGKILL. */
  readonly killGraceMs: number;
  /** The shell `bash` runs commands with. */
  readonly shell: string;
  /** The environment of `bash` commands: the minimal one plus what `env.pass` and `env.set` add. */
  readonly env: Readonly<Record<string, string>>;
}

/** A tool fault written for the model. */
export function toolError(
  toolName: string,
  message: string,
  code: "execution-failed" | "invalid-input" = "execution-failed",
): ToolCallError {
  return new ToolCallError(code, toolName, message);
}

/** Stats a path that must be an existing regular file, with a precise error for anything else. */
export async function requireFile(toolName: string, target: WorkspacePath, what = "File"): Promise<Stats> {
  if (!target.exists) {
    throw toolError(toolName, `${what} not found: ${target.display}. Use ls or find to see which files exist.`);
  }
  const stats = await stat(target.real);
  if (stats.isDirectory()) {
    throw toolError(
      toolName,
      `${target.display} is a folder, not a file. Use ls to list it, or find to search in it.`,
      "invalid-input",
    );
  }
  if (!stats.isFile()) {
    throw toolError(
      toolName,
      `${target.display} is not a regular file (it is a device, socket or pipe) and cannot be used by ${toolName}.`,
      "invalid-input",
    );
  }
  return stats;
}

/** The message of a Node file-system error, as a sentence about the displayed path. */
export function describeFsError(error: unknown, display: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "EACCES":
    case "EPERM":
      return `Permission denied: ${display}`;
    case "ENOENT":
      return `Not found: ${display}`;
    case "ENOTDIR":
      return `A part of ${display} is a file, not a folder`;
    case "EISDIR":
      return `${display} is a folder, not a file`;
    case "ENOSPC":
      return `No space left on the device while writing ${display}`;
    case "EROFS":
      return `${display} is on a read-only file system`;
    default:
      return `${code ?? "Error"} on ${display}: ${(error as Error | undefined)?.message ?? String(error)}`;
  }
}
