// `toolwire pin --diff`: the parts of a pinned definition that the one listed now changes, as line diffs.
import { diffLines } from "../../builtins/diff-lines.js";
import { canonicalJson } from "../../core/approve/input-digest.js";
import { DEFINITION_PARTS } from "../../core/register/fingerprint-tool-definition.js";
import type { PinnedToolDefinition } from "../../core/types.js";

/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 3;

/**
 * The lines of a readable diff from `pinned` to `current`, for the changed parts only: a `--- part (pinned)` and
 * `+++ part (listed now)` header, then unified-diff hunks of the part's text (a string as it is, a schema or
 * annotations as JSON with sorted keys, two-space indented). A part too changed to diff quickly is shown whole,
 * removed then added.
 */
export function diffDefinitions(pinned: PinnedToolDefinition, current: PinnedToolDefinition): string[] {
  const lines: string[] = [];
  for (const [key, words] of DEFINITION_PARTS) {
    const before = pinned[key];
    const after = current[key];
    if (canonicalJson(before) === canonicalJson(after)) continue;
    lines.push(`--- ${words} (pinned${before === undefined ? ": absent" : ""})`);
    lines.push(`+++ ${words} (listed now${after === undefined ? ": absent" : ""})`);
    const from = textOf(before);
    const to = textOf(after);
    const hunks = diffLines(from, to, { context: CONTEXT_LINES, maxEditLength: 10_000, deadline: Date.now() + 1_000 });
    if (hunks === undefined) {
      for (const line of linesOf(from)) lines.push(`-${line}`);
      for (const line of linesOf(to)) lines.push(`+${line}`);
      continue;
    }
    for (const hunk of hunks) {
      lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
    }
  }
  return lines;
}

/** A part as text: nothing when absent, a string as it is, anything else as sorted, indented JSON; ends in a newline. */
function textOf(part: unknown): string {
  if (part === undefined) return "";
  const text = typeof part === "string" ? part : JSON.stringify(JSON.parse(canonicalJson(part)), null, 2);
  return text.endsWith("\n") ? text : `${text}\n`;
}

function linesOf(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}
