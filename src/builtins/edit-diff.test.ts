import { structuredPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiff } from "./edit.js";

/** The diff of the whole texts, formatted as formatDiff does: the reference the fast path must equal. */
function referenceDiff(before: string, after: string): string {
  const patch = structuredPatch("a", "b", before, after, undefined, undefined, { context: 3 });
  return patch.hunks
    .flatMap((hunk) => [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines])
    .join("\n");
}

const text = fc
  .array(fc.constantFrom("a", "b", "c", "", "a b"), { maxLength: 30 })
  .chain((lines) =>
    fc.boolean().map((finalNewline) => lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "")),
  );

describe("edit diff", () => {
  it("diffs only the changed region yet gives the same hunks as diffing whole texts (property)", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(formatDiff(before, after).full).toBe(referenceDiff(before, after));
      }),
      { numRuns: 1000 },
    );
  });

  it("diffs a one-line change in a 50 000-line file from the changed region", () => {
    const before = Array.from({ length: 50_000 }, (_, index) => `line ${index}`).join("\n");
    const after = before.replace("line 25000\n", "LINE 25000\n");
    expect(formatDiff(before, after).full).toBe(
      [
        "@@ -24998,7 +24998,7 @@",
        " line 24997",
        " line 24998",
        " line 24999",
        "-line 25000",
        "+LINE 25000",
        " line 25001",
        " line 25002",
        " line 25003",
      ].join("\n"),
    );
  });
});
