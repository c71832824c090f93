// The workspace guard: every path a built-in tool touches resolves inside one root folder, symlinks included.
import { realpathSync, statSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolCallError } from "../core/errors.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";

/** A path a model gave, checked and resolved inside the workspace. */
export interface WorkspacePath {
  /** The real absolute path (symlinks resolved); what the tools open. */
  readonly real: string;
  /** The path as the model should see it: relative to the root, `/`-separated, `.` for the root itself. */
  readonly display: string;
  /** Whether something exists there. */
  readonly exists: boolean;
}

/** One workspace root and the checks every tool runs against it. */
export interface Workspace {
  /** The root as given, made absolute. */
  readonly root: string;
  /** The root with its symlinks resolved. */
  readonly realRoot: string;
  /**
   * Resolves a model's path (relative to the root, or absolute inside it). Throws `ToolCallError`
   * (`invalid-input`) when it resolves outside the root, through `..`, an absolute path or a symlink,
   * or when it crosses a dangling link. The message never contains anything read outside the root.
   */
  resolve(toolName: string, path: string): Promise<WorkspacePath>;
  /** Whether a real (symlink-free) absolute path lies inside the root. */
  contains(realPath: string): boolean;
  /** A real absolute path inside the root as the model sees it: relative, `/`-separated, `.` for the root. */
  display(realPath: string): string;
}

/**
 * Opens a workspace on an existing folder. Throws `BuiltinToolsError` (`invalid-workspace-root`) when `root` is not
 * one.
 */
export function createWorkspace(root: string): Workspace {
  const absoluteRoot = resolve(root);
  let realRoot: string;
  try {
    realRoot = realpathSync(absoluteRoot);
    if (!statSync(realRoot).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new BuiltinToolsError(
      "invalid-workspace-root",
      `Workspace root ${JSON.stringify(root)} does not exist or is not a folder`,
    );
  }
  const inside = (base: string, path: string) =>
    path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
  const contains = (realPath: string) => inside(realRoot, realPath);
  const display = (realPath: string) => toDisplay(relative(realRoot, realPath));

  const refuse = (toolName: string, path: string, why: string): never => {
    throw new ToolCallError(
      "invalid-input",
      toolName,
      `Path ${quotePath(path)} ${why}. Tools can only reach files inside the workspace root; use a path relative to it (for example "src/index.ts").`,
    );
  };

  return Object.freeze({
    root: absoluteRoot,
    realRoot,
    contains,
    display,
    async resolve(toolName: string, path: string): Promise<WorkspacePath> {
      if (path.includes("\0")) refuse(toolName, path.replaceAll("\0", "\\0"), "contains a NUL character");
      const lexical = isAbsolute(path) ? resolve(path) : resolve(realRoot, path);
      // An absolute path may name the root as given or as resolved; both are inside.
      const base = inside(realRoot, lexical) ? realRoot : inside(absoluteRoot, lexical) ? absoluteRoot : undefined;
      if (base === undefined) refuse(toolName, path, "is outside the workspace");
      let found: Deepest;
      try {
        found = await realpathDeepest(lexical as string);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENAMETOOLONG") refuse(toolName, path, "is too long for the file system");
        throw new ToolCallError(
          "execution-failed",
          toolName,
          `Could not look up path ${quotePath(path)} (${code ?? "error"}). Check that its folders can be listed.`,
        );
      }
      if (found.kind === "dangling") refuse(toolName, path, "goes through a dangling symbolic link");
      if (found.kind === "loop") refuse(toolName, path, "goes through a symbolic link loop");
      const real = (found as { real: string }).real;
      if (!contains(real)) refuse(toolName, path, "resolves outside the workspace through a symbolic link");
      return { real, display: display(real), exists: (found as { exists: boolean }).exists };
    },
  });
}

/** The most characters of a model's path an error message repeats. */
const MAX_PATH_IN_MESSAGE = 200;

/** A path as it appears in a message: cut to `MAX_PATH_IN_MESSAGE` characters with an ellipsis. */
export function boundPath(path: string): string {
  if (path.length <= MAX_PATH_IN_MESSAGE) return path;
  let cut = path.slice(0, MAX_PATH_IN_MESSAGE);
  // Do not leave half of a surrogate pair at the end.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A path quoted for a message (JSON string syntax), cut as `boundPath` does. */
export function quotePath(path: string): string {
  return JSON.stringify(boundPath(path));
}

type Deepest =
  | { readonly kind: "found"; readonly real: string; readonly exists: boolean }
  | { readonly kind: "dangling" }
  | { readonly kind: "loop" };

/** Realpath of the deepest existing ancestor, with the missing tail appended. */
async function realpathDeepest(path: string): Promise<Deepest> {
  const tail: string[] = [];
  let current = path;
  for (;;) {
    let present = true;
    try {
      await lstat(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      present = false;
    }
    if (present) {
      try {
        const real = await realpath(current);
        return { kind: "found", real: tail.length === 0 ? real : join(real, ...tail), exists: tail.length === 0 };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ELOOP") return { kind: "loop" };
        if (code === "ENOENT" || code === "ENOTDIR") return { kind: "dangling" };
        throw error;
      }
    }
    const parent = resolve(current, "..");
    if (parent === current) return { kind: "found", real: join(current, ...tail), exists: false };
    tail.unshift(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    current = parent;
  }
}

function toDisplay(relativePath: string): string {
  if (relativePath === "") return ".";
  return sep === "/" ? relativePath : relativePath.split(sep).join("/");
}
