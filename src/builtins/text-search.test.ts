import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTextSearch, findAllOccurrences } from "./text-search.js";

/** The occurrences as repeated indexOf finds them (correct, but not linear in time). */
function byIndexOf(text: string, needle: string): number[] {
  const positions: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    positions.push(index);
  }
  return positions;
}

describe("findAllOccurrences", () => {
  it("finds what indexOf finds, for short and long needles (property)", () => {
    const piece = fc.constantFrom("a", "b", "ab", "aab", "\n", "é");
    const text = fc.array(piece, { maxLength: 200 }).map((pieces) => pieces.join(""));
    // Long needles (over 64 characters) take the Knuth-Morris-Pratt path.
    const needle = fc
      .tuple(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 40 }))
      .map(([pieces, times]) => pieces.join("").repeat(times));
    fc.assert(
      fc.property(text, needle, fc.nat(5), (body, wanted, copies) => {
        const haystack = body + wanted.repeat(copies) + body;
        expect(findAllOccurrences(haystack, wanted)).toEqual(byIndexOf(haystack, wanted));
      }),
      { numRuns: 1000 },
    );
  });

  it("searches from an offset", () => {
    const needle = "x".repeat(70);
    expect(createTextSearch(needle)(`${needle}-${needle}`, 1)).toBe(71);
    expect(createTextSearch(needle)(needle, 1)).toBe(-1);
  });

  it("takes linear time where indexOf takes the text's length times the needle's", () => {
    const started = Date.now();
    expect(findAllOccurrences("a".repeat(4_000_000), `${"a".repeat(100_000)}b${"a".repeat(100_000)}`)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
