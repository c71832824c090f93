import { structuredPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines } from "./diff-lines.js";

// Texts of few distinct lines, so that equal lines (and ties between diffs of as few edits) are common.
const text = fc
  .array(fc.constantFrom("a", "b", "c", "", "a b", "a\r", "é"), { maxLength: 40 })
  .chain((lines) =>
    fc.boolean().map((finalNewline) => lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "")),
  );

/** The `diff` package's hunks for the same texts and options, or undefined where it gives up. */
function packageHunks(before: string, after: string, context: number, maxEditLength: number) {
  return structuredPatch("a", "b", before, after, undefined, undefined, { context, maxEditLength })?.hunks;
}

describe("diffLines", () => {
  it("gives the hunks the diff package's structuredPatch gives, for any texts and context (property)", () => {
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 5 }), (before, after, context) => {
        const ours = diffLines(before, after, { context, maxEditLength: Number.POSITIVE_INFINITY, deadline: Infinity });
        expect(ours).toEqual(packageHunks(before, after, context, Number.POSITIVE_INFINITY));
      }),
      { numRuns: 1500 },
    );
  });

  it("gives up past the edit bound exactly where the diff package does (property)", () => {
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 12 }), (before, after, maxEditLength) => {
        const ours = diffLines(before, after, { context: 3, maxEditLength, deadline: Infinity });
        expect(ours).toEqual(packageHunks(before, after, 3, maxEditLength));
      }),
      { numRuns: 1000 },
    );
  });

  it("gives up once the deadline has passed", () => {
    expect(diffLines("a\nb\n", "b\na\n", { context: 3, maxEditLength: 10, deadline: Date.now() - 1 })).toBeUndefined();
    expect(diffLines("a\n", "a\n", { context: 3, maxEditLength: 10, deadline: Date.now() - 1 })).toEqual([]);
  });

  it("marks a last line without a newline", () => {
    expect(diffLines("a\nb", "a\nc\n", { context: 1, maxEditLength: 10, deadline: Infinity })).toEqual([
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" a", "-b", "\\ No newline at end of file", "+c"] },
    ]);
  });
});
