// What every built-in tool shares: the workspace guard, the read tracker, the options, and its error helpers.
import type { Stats } from "node:fs";
import { type FileHandle, stat } from "node:fs/promises";
import { ToolCallError } from "../core/errors.js";
import type { ResolvedSandbox } from "../sandbox/sandbox-options.js";
import { openFileInside } from "./open-inside.js";
import type { ReadTracker } from "./read-tracker.js";
import { boundPath, type Workspace, type WorkspacePath } from "./workspace.js";

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
  /** How `bash` is confined; `undefined` for `sandbox: "off"`. */
  readonly sandbox: ResolvedSandbox | undefined;
}

/**
 * The most characters of an engine's reason (a regular expression's or a glob's) that a message repeats: it can quote
 * the model's whole pattern.
 */
export const MAX_REASON_CHARS = 300;

/** A tool fault written for the model. */
export function toolError(
  toolName: string,
  message: string,
  code: "execution-failed" | "invalid-input" = "execution-failed",
): ToolCallError {
  return new ToolCallError(code, toolName, message);
}

/**
 * Opens a path that must be an existing regular file inside the root, for reading: never blocks on a
 * FIFO or device, and checks what was opened (see `openFileInside`). Throws a precise `ToolCallError`
 * for anything else. The caller closes the handle.
 */
export async function openRequiredFile(
  workspace: Workspace,
  toolName: string,
  target: WorkspacePath,
  what = "File",
): Promise<{ readonly handle: FileHandle; readonly stats: Stats }> {
  const shown = boundPath(target.display);
  const outcome = target.exists ? await openFileInside(workspace, target.real) : undefined;
  if (outcome?.kind === "opened") return outcome;
  const refusal = outcome?.refusal ?? { kind: "missing" };
  switch (refusal.kind) {
    case "missing":
      throw toolError(toolName, `${what} not found: ${shown}. Use ls or find to see which files exist.`);
    case "folder":
      throw toolError(
        toolName,
        `${shown} is a folder, not a file. Use ls to list it, or find to search in it.`,
        "invalid-input",
      );
    case "special":
      throw toolError(toolName, specialFileMessage(toolName, shown, refusal.what), "invalid-input");
    case "link":
    case "outside":
      throw toolError(toolName, changedPathMessage(shown), "invalid-input");
    case "unreadable":
      throw toolError(toolName, `Could not open ${shown}: ${describeFsError(refusal.error, shown)}.`);
  }
}

/**
 * Stats (following links) a path the guard found existing. Throws a `ToolCallError` rather than a
 * bare file-system error when it is gone or unreachable by now (something changed it during the call).
 */
export async function statResolved(toolName: string, target: WorkspacePath): Promise<Stats> {
  try {
    return await stat(target.real);
  } catch (error) {
    const shown = boundPath(target.display);
    throw toolError(
      toolName,
      `Could not use ${shown}: ${describeFsError(error, shown)}. It changed during the call; check it with ls and try again.`,
    );
  }
}

/** The refusal of a FIFO, socket or device, which no file tool reads or writes. */
export function specialFileMessage(toolName: string, shown: string, what: string): string {
  return `${shown} is ${what}, not a regular file, so ${toolName} does not use it (the file tools only read and write regular files and folders). Inspect it with bash if you need to.`;
}

/** The refusal of a path that changed during the call so that it led outside the root. */
function changedPathMessage(shown: string): string {
  return `${shown} changed while it was being opened (a folder or file on its path was replaced by a symbolic link) and was not used, because it could lead outside the workspace. Try again; if it keeps happening, something else is changing these files.`;
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
    case "ENAMETOOLONG":
      return `${display} is too long a path for the file system`;
    case "ELOOP":
    case "EOUTSIDE":
      return `a folder on the path of ${display} was replaced by a symbolic link or moved out of the workspace during the call, so it was not used`;
    default:
      return `${code ?? "Error"} on ${display}: ${(error as Error | undefined)?.message ?? String(error)}`;
  }
}
