import { applyPatch, structuredPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiff } from "./edit-diff.js";

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

  it("falls back to one hunk replacing the changed region, and it still applies (property)", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = formatDiff(before, after, 0);
        expect(applyFormatted(before, diff.full)).toBe(after);
        if (diff.full !== "" && !diff.minimal) expect(diff.text).toContain("too large to diff line by line");
      }),
      { numRuns: 1000 },
    );
  });

  it("diffs many scattered changes line by line within the edit bound", () => {
    const before = Array.from({ length: 20_000 }, (_, index) => `line ${index}`).join("\n");
    const after = before.replace(/line (\d*00)$/gm, "LINE $1");
    const diff = formatDiff(before, after);
    expect(diff.minimal).toBe(true);
    expect(applyFormatted(before, diff.full)).toBe(after);
    expect(diff.text).toContain("[Diff cut at 120 of");
  });

  it("keeps the model's diff within 50 KB even when every shown line is long", () => {
    const before = Array.from({ length: 200 }, (_, index) => `${index} ${"é".repeat(600)}`).join("\n");
    const diff = formatDiff(before, before.replaceAll("é", "è"));
    expect(Buffer.byteLength(diff.text)).toBeLessThanOrEqual(50 * 1024);
    expect(diff.text).toMatch(/\[Diff cut at \d+ of \d+ lines; read the file to see the rest\.\]$/);
  });
});
