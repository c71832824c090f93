// A line diff as unified-diff hunks, for the edit tool's results: Myers' algorithm, bounded in edits and in time.

/** One hunk, as in a unified diff; `lines` start with " ", "-", "+" or are "\ No newline at end of file". */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: string[];
}

/** How far to look. */
export interface DiffLinesOptions {
  /** Unchanged lines shown around each change; hunks closer than twice this join. */
  readonly context: number;
  /** The most line edits (removed plus added lines) to look for before giving up. */
  readonly maxEditLength: number;
  /** Gives up once `Date.now()` passes this. */
  readonly deadline: number;
}

/**
 * The hunks that turn `before` into `after`, line by line (a line keeps its newline; a last line may have none), with
 * a fewest-edits diff; undefined when that takes more than `maxEditLength` edits or runs past the deadline. The hunks
 * are the ones the `diff` package's `structuredPatch` gives for the same texts and options (a property test compares
 * them): among diffs with as few edits, the same one is picked.
 */
export function diffLines(before: string, after: string, options: DiffLinesOptions): DiffHunk[] | undefined {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const last = shortestEdit(oldLines, newLines, options);
  return last === undefined ? undefined : hunksOf(runsOf(last, oldLines, newLines), options.context);
}

/** A stretch of equal, added or removed lines, linked to the one before it. */
interface Run {
  readonly kind: "same" | "added" | "removed";
  readonly count: number;
  readonly previous: Run | undefined;
}

/** The furthest point reached on one diagonal: the last old line consumed (-1 for none) and how it got there. */
interface Path {
  oldPos: number;
  last: Run | undefined;
}

/**
 * Myers' greedy search, diagonal `k` holding the points where (old position - new position) = k. For each number of
 * edits it extends every diagonal by one insertion or removal (preferring the one that has consumed more old lines,
 * insertion on a tie) and then along equal lines; diagonals that have run off an edge are no longer considered.
 * Returns the last run of the first path to reach both ends.
 */
function shortestEdit(a: readonly string[], b: readonly string[], options: DiffLinesOptions): Run | "none" | undefined {
  const start: Path = { oldPos: -1, last: undefined };
  if (followEqual(start, 0, a, b)) return start.last ?? "none";
  const paths = new Map<number, Path>([[0, start]]);
  let lowest = Number.NEGATIVE_INFINITY;
  let highest = Number.POSITIVE_INFINITY;
  const most = Math.min(options.maxEditLength, a.length + b.length);
  for (let edits = 1; edits <= most && Date.now() <= options.deadline; edits++) {
    for (let k = Math.max(lowest, -edits); k <= Math.min(highest, edits); k += 2) {
      const fromRemove = paths.get(k - 1);
      const fromAdd = paths.get(k + 1);
      paths.delete(k - 1);
      const addedNewPos = fromAdd === undefined ? -1 : fromAdd.oldPos - k;
      const canAdd = fromAdd !== undefined && addedNewPos >= 0 && addedNewPos < b.length;
      const canRemove = fromRemove !== undefined && fromRemove.oldPos + 1 < a.length;
      if (!canAdd && !canRemove) {
        paths.delete(k);
        continue;
      }
      const path =
        !canRemove || (canAdd && (fromRemove as Path).oldPos < (fromAdd as Path).oldPos)
          ? extend(fromAdd as Path, "added", 0)
          : extend(fromRemove as Path, "removed", 1);
      if (followEqual(path, k, a, b)) return path.last ?? "none";
      paths.set(k, path);
      if (path.oldPos + 1 >= a.length) highest = Math.min(highest, k - 1);
      if (path.oldPos - k + 1 >= b.length) lowest = Math.max(lowest, k + 1);
    }
  }
  return undefined;
}

/** A new path one edit further than `path`. */
function extend(path: Path, kind: "added" | "removed", oldStep: number): Path {
  const last = path.last;
  const run =
    last !== undefined && last.kind === kind
      ? { kind, count: last.count + 1, previous: last.previous }
      : { kind, count: 1, previous: last };
  return { oldPos: path.oldPos + oldStep, last: run };
}

/** Moves `path` along diagonal `k` over equal lines; true when it then stands at the end of both texts. */
function followEqual(path: Path, k: number, a: readonly string[], b: readonly string[]): boolean {
  let oldPos = path.oldPos;
  let newPos = oldPos - k;
  const from = oldPos;
  while (newPos + 1 < b.length && oldPos + 1 < a.length && a[oldPos + 1] === b[newPos + 1]) {
    oldPos++;
    newPos++;
  }
  if (oldPos > from) path.last = { kind: "same", count: oldPos - from, previous: path.last };
  path.oldPos = oldPos;
  return oldPos + 1 >= a.length && newPos + 1 >= b.length;
}

/** The runs in order, each with its lines (removed ones from the old text, the others from the new). */
function runsOf(
  last: Run | "none",
  a: readonly string[],
  b: readonly string[],
): { kind: Run["kind"]; lines: string[] }[] {
  const runs: Run[] = [];
  for (let run = last === "none" ? undefined : last; run !== undefined; run = run.previous) runs.push(run);
  runs.reverse();
  let oldPos = 0;
  let newPos = 0;
  return runs.map((run) => {
    if (run.kind === "removed") {
      oldPos += run.count;
      return { kind: run.kind, lines: a.slice(oldPos - run.count, oldPos) };
    }
    newPos += run.count;
    if (run.kind === "same") oldPos += run.count;
    return { kind: run.kind, lines: b.slice(newPos - run.count, newPos) };
  });
}

/**
 * Unified-diff hunks from the runs: `context` equal lines around each change, hunks whose gap is at most twice that
 * joined, and each line's newline dropped (a line without one followed by "\ No newline at end of file").
 */
function hunksOf(runs: { kind: Run["kind"]; lines: string[] }[], context: number): DiffHunk[] {
  runs.push({ kind: "same", lines: [] }); // closes the last hunk
  const hunks: DiffHunk[] = [];
  let open = false;
  let oldStart = 0;
  let newStart = 0;
  let lines: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  runs.forEach((run, index) => {
    if (run.kind !== "same") {
      if (!open) {
        open = true;
        const before = index > 0 && context > 0 ? (runs[index - 1]?.lines.slice(-context) ?? []) : [];
        lines = before.map((line) => ` ${line}`);
        oldStart = oldLine - before.length;
        newStart = newLine - before.length;
      }
      for (const line of run.lines) lines.push((run.kind === "added" ? "+" : "-") + line);
      if (run.kind === "added") newLine += run.lines.length;
      else oldLine += run.lines.length;
      return;
    }
    if (open) {
      if (run.lines.length <= context * 2 && index < runs.length - 2) {
        for (const line of run.lines) lines.push(` ${line}`);
      } else {
        const after = run.lines.slice(0, context);
        for (const line of after) lines.push(` ${line}`);
        hunks.push({
          oldStart,
          oldLines: oldLine - oldStart + after.length,
          newStart,
          newLines: newLine - newStart + after.length,
          lines: lines.flatMap((line) =>
            line.endsWith("\n") ? [line.slice(0, -1)] : [line, "\\ No newline at end of file"],
          ),
        });
        open = false;
      }
    }
    oldLine += run.lines.length;
    newLine += run.lines.length;
  });
  return hunks;
}

/** Lines with their newlines; a last line without one stays as it is. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}
