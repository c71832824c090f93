import { applyPatch, structuredPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiff } from "./edit.js";

/** Applies formatDiff's hunks to `before`, as a unified diff with file headers. */
function applyFormatted(before: string, hunks: string): string | false {
  return hunks === "" ? before : applyPatch(before, `--- a\n+++ b\n${hunks}\n`);
}

const text = fc
  .array(fc.constantFrom("a", "b", "c", "", "a b"), { maxLength: 30 })
  .chain((lines) =>
    fc.boolean().map((finalNewline) => lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "")),
  );

describe("edit diff", () => {
  it("diffs only the changed region, and its hunks turn the old text into the new (property)", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applyFormatted(before, formatDiff(before, after).full)).toBe(after);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives the same hunks as a whole-text diff for one contiguous change (property)", () => {
    fc.assert(
      fc.property(text, text, text, (prefix, middle, suffix) => {
        const before = `${prefix}\nold line\n${suffix}`;
        const after = `${prefix}\n${middle}new line\n${suffix}`;
        const whole = structuredPatch("a", "b", before, after, undefined, undefined, { context: 3 }).hunks.flatMap(
          (hunk) => ["@@", ...hunk.lines],
        );
        expect(applyFormatted(before, formatDiff(before, after).full)).toBe(after);
        expect(formatDiff(before, after).full.split("\n").length).toBeLessThanOrEqual(whole.length);
      }),
      { numRuns: 500 },
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
