// Walking the workspace for grep and find: sorted, .gitignore-aware, never following a link out of the root.
import type { Dirent } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import ignore, { type Ignore } from "ignore";
import { listFolderPinned, readFolderInside } from "./folder-inside.js";
import { HAS_PROC_FD, openFileInside, readUpTo } from "./open-inside.js";
import { boundPath, type Workspace } from "./workspace.js";

/** The most entries one walk visits before it stops and says so. */
const MAX_WALK_ENTRIES = 200_000;
/** Ignore files larger than this are not read (and the walk says so). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** One file or folder met on a walk. */
interface WalkEntry {
  /** Where it is (a link's own location for a linked file). */
  readonly path: string;
  /** The file to open (a linked file's target, always inside the root). */
  readonly real: string;
  /**
   * On Linux, for a file met directly (not through a link): its name under its folder's open descriptor
   * (`/proc/self/fd/<n>/<name>`), valid only during the visit. Opened with `O_NOFOLLOW`, it can only be
   * that folder's own entry; see `createFolderFileReader`.
   */
  readonly pinned: string | undefined;
  /** Relative to the workspace root, `/`-separated. */
  readonly display: string;
  /** Relative to the walk's start folder, `/`-separated. */
  readonly fromStart: string;
  readonly kind: "file" | "folder";
}

/** What a walk skipped, so a tool can say so. */
export interface WalkReport {
  visited: number;
  ignored: number;
  /** Links not followed: dangling, pointing outside the root, or to a folder. */
  skippedLinks: number;
  unreadable: number;
  /** Named pipes, sockets and devices met: never listed, never read. */
  skippedSpecial: number;
  /**
   * Ignore files found but not read (a link, not a regular file, too large, unreadable): their rules were not applied.
   */
  ignoreFilesNotRead: { readonly path: string; readonly why: string }[];
  limitReached: boolean;
  /** The start folder is itself ignored by a .gitignore above it; its own contents were walked anyway. */
  startIgnored: boolean;
}

interface Matcher {
  readonly folder: string;
  readonly rules: Ignore;
}

/** Called for each entry in walk order; return `"stop"` to end the walk. */
type WalkVisitor = (entry: WalkEntry) => Promise<"stop" | undefined> | "stop" | undefined;

/** The walk gives the event loop a turn (so an abort or a timeout can act) after this many entries. */
const TURN_EVERY_ENTRIES = 256;

/** A folder's entries and, on Linux, the path naming its open descriptor (see `listFolderPinned`). */
interface Listing {
  readonly entries: Dirent[];
  readonly pinned: string | undefined;
  close(): void;
}

/**
 * Walks a folder inside the workspace depth-first, names sorted, calling `visit` for every file and
 * folder not ignored. Honours `.gitignore` files (from the root down, nested ones included, with
 * negations) and `.git/info/exclude`; always skips `.git`. Links are listed only when they point to
 * a file inside the root; linked folders are never entered. On Linux each folder stays open while its
 * entries are visited, and subfolders and files are reached by one name under it without following a
 * link (`WalkEntry.pinned`), so a folder swapped for a link during the walk does not lead it out.
 */
export async function walkWorkspace(
  workspace: Workspace,
  startReal: string,
  options: { readonly signal: AbortSignal; readonly visit: WalkVisitor; readonly maxEntries?: number },
): Promise<WalkReport> {
  const report: WalkReport = {
    visited: 0,
    ignored: 0,
    skippedLinks: 0,
    unreadable: 0,
    skippedSpecial: 0,
    ignoreFilesNotRead: [],
    limitReached: false,
    startIgnored: false,
  };
  const { signal, visit } = options;
  const maxEntries = options.maxEntries ?? MAX_WALK_ENTRIES;
  let matchers = await ancestorMatchers(workspace, startReal, report);
  if (startReal !== workspace.realRoot && isIgnored(matchers, startReal, true)) {
    // Asked for an ignored folder by name: look inside it, under its own .gitignore files only.
    report.startIgnored = true;
    matchers = [];
  }
  let sinceTurn = 0;

  /** Lists a folder: on Linux by `opener` (its real path, or a name under its parent's pinned path). */
  const list = async (folder: string, opener: string): Promise<Listing> => {
    if (HAS_PROC_FD) return listFolderPinned(workspace, opener);
    // Through a checked descriptor: a folder swapped for a link to elsewhere is not listed.
    return { entries: await readFolderInside(workspace, folder), pinned: undefined, close() {} };
  };

  /** Walks `folder` (a real path; `display` and `fromStart` are its own relative paths). */
  const walkFolder = async (
    folder: string,
    opener: string,
    inherited: readonly Matcher[],
    display: string,
    fromStart: string,
  ): Promise<"stop" | undefined> => {
    signal.throwIfAborted();
    let listing: Listing;
    try {
      listing = await list(folder, opener);
    } catch {
      report.unreadable++;
      return undefined;
    }
    try {
      const { entries, pinned } = listing;
      const local = [...inherited];
      if (entries.some((entry) => entry.name === ".gitignore")) {
        const rules = await loadRules(workspace, childPath(folder, ".gitignore"), report);
        if (rules !== undefined) local.push({ folder, rules });
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        signal.throwIfAborted();
        if (++sinceTurn >= TURN_EVERY_ENTRIES) {
          sinceTurn = 0;
          await nextTurn();
          signal.throwIfAborted();
        }
        const { name } = entry;
        if (name === ".git") continue;
        const path = childPath(folder, name);
        let real = path;
        let kind: WalkEntry["kind"];
        let linked = false;
        if (entry.isSymbolicLink()) {
          const target = await linkedFile(workspace, path);
          if (target === undefined) {
            report.skippedLinks++;
            continue;
          }
          real = target;
          kind = "file";
          linked = true;
        } else if (entry.isDirectory()) {
          kind = "folder";
        } else if (entry.isFile()) {
          kind = "file";
        } else {
          report.skippedSpecial++;
          continue;
        }
        if (isIgnored(local, path, kind === "folder")) {
          report.ignored++;
          continue;
        }
        if (report.visited >= maxEntries) {
          report.limitReached = true;
          return "stop";
        }
        report.visited++;
        const under = pinned === undefined ? undefined : `${pinned}/${name}`;
        const childDisplay = display === "." ? name : `${display}/${name}`;
        const childFromStart = fromStart === "" ? name : `${fromStart}/${name}`;
        let verdict = visit({
          path,
          real,
          display: childDisplay,
          fromStart: childFromStart,
          kind,
          pinned: kind === "file" && !linked ? under : undefined,
        });
        if (verdict instanceof Promise) verdict = await verdict;
        if (verdict === "stop") return "stop";
        if (kind === "folder") {
          const inner = await walkFolder(path, under ?? path, local, childDisplay, childFromStart);
          if (inner === "stop") return "stop";
        }
      }
      return undefined;
    } finally {
      listing.close();
    }
  };

  await walkFolder(startReal, startReal, matchers, workspace.display(startReal), "");
  return report;
}

/** The .gitignore rules from the root down to (not including) `startReal`, and `.git/info/exclude`. */
async function ancestorMatchers(workspace: Workspace, startReal: string, report: WalkReport): Promise<Matcher[]> {
  const matchers: Matcher[] = [];
  const exclude = await loadRules(workspace, join(workspace.realRoot, ".git", "info", "exclude"), report);
  if (exclude !== undefined) matchers.push({ folder: workspace.realRoot, rules: exclude });
  const folders: string[] = [];
  for (let folder = dirname(startReal); workspace.contains(folder); folder = dirname(folder)) {
    folders.unshift(folder);
    if (folder === workspace.realRoot) break;
  }
  if (startReal === workspace.realRoot) return matchers;
  for (const folder of folders) {
    const rules = await loadRules(workspace, join(folder, ".gitignore"), report);
    if (rules !== undefined) matchers.push({ folder, rules });
  }
  return matchers;
}

/**
 * An ignore file's rules, read only when it is a regular file inside the root (a link is not
 * followed, as git does not), opened without blocking, and at most `MAX_IGNORE_FILE_BYTES`; any
 * other one found is noted in the report.
 */
async function loadRules(workspace: Workspace, file: string, report: WalkReport): Promise<Ignore | undefined> {
  const note = (why: string) => {
    report.ignoreFilesNotRead.push({ path: workspace.display(file), why });
    return undefined;
  };
  const opened = await openFileInside(workspace, file, { noFollow: true });
  if (opened.kind === "refused") {
    const { refusal } = opened;
    switch (refusal.kind) {
      case "missing":
        return undefined;
      case "folder":
        return note("it is a folder");
      case "special":
        return note(`it is ${refusal.what}`);
      case "link":
        return note("it is a symbolic link, and ignore files are not followed through links");
      case "outside":
        return note("it lies outside the workspace");
      case "unreadable":
        return note(`it could not be read (${(refusal.error as NodeJS.ErrnoException).code ?? "error"})`);
    }
  }
  try {
    const bytes = await readUpTo(opened.handle, MAX_IGNORE_FILE_BYTES);
    if (bytes === undefined) return note(`it is over ${MAX_IGNORE_FILE_BYTES / 1024 / 1024} MB`);
    return ignore().add(bytes.toString("utf8"));
  } catch (error) {
    return note(`it could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  } finally {
    await opened.handle.close();
  }
}

/** Notes for a tool's result about what the walk could not honour, one line each (empty when nothing). */
export function walkNotes(report: WalkReport): string[] {
  return report.ignoreFilesNotRead.map(
    ({ path, why }) => `[Ignore file ${boundPath(path)} was not read because ${why}; its rules were not applied.]`,
  );
}

/** Whether the deepest rule set with a verdict ignores the path. */
function isIgnored(matchers: readonly Matcher[], path: string, isFolder: boolean): boolean {
  for (let index = matchers.length - 1; index >= 0; index--) {
    const matcher = matchers[index] as Matcher;
    const rel = relativeUnder(matcher.folder, path);
    if (rel === undefined || rel.startsWith("..")) continue;
    const verdict = matcher.rules.test(isFolder ? `${rel}/` : rel);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/** A link's target when it is a file inside the root; `undefined` otherwise (dangling, outside, a folder). */
async function linkedFile(workspace: Workspace, path: string): Promise<string | undefined> {
  try {
    const target = await realpath(path);
    if (!workspace.contains(target)) return undefined;
    return (await stat(target)).isFile() ? target : undefined;
  } catch {
    return undefined;
  }
}

/** `path` under `folder` (both real, normalized), `/`-separated; `undefined` when it is not strictly under it. */
function relativeUnder(folder: string, path: string): string | undefined {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  return path.startsWith(prefix) && path.length > prefix.length ? toSlashes(path.slice(prefix.length)) : undefined;
}

/** A name under a real folder path (the root may be `/`). */
function childPath(folder: string, name: string): string {
  return folder.endsWith(sep) ? folder + name : folder + sep + name;
}

function toSlashes(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
