// formatProgramOutput: console lines then the value, cut to the limit with a note saying how much was cut.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutPoint, formatProgramOutput } from "./program-output.js";

const NOTHING = { logChars: 0, valueChars: 0 };

describe("formatProgramOutput", () => {
  it("puts the lines first, then the value, one per line", () => {
    expect(formatProgramOutput(["a", "b"], "value", NOTHING, 100)).toBe("a\nb\nvalue");
    expect(formatProgramOutput([], "value", NOTHING, 100)).toBe("value");
    expect(formatProgramOutput(["a"], "", NOTHING, 100)).toBe("a");
  });

  it("cuts to the limit and says how many characters were left out", () => {
    expect(formatProgramOutput([], "abcdefghij", NOTHING, 4)).toBe(
      "abcd\n[output cut: 6 of 10 characters left out; the limit is 4]",
    );
  });

  it("cuts what follows console characters the worker did not keep", () => {
    expect(formatProgramOutput(["ab"], "value", { logChars: 30, valueChars: 0 }, 100)).toBe(
      "ab\n[output cut: 36 of 38 characters left out; the limit is 100]",
    );
  });

  it("counts the value's characters the worker did not send", () => {
    expect(formatProgramOutput(["log"], "abcd", { logChars: 0, valueChars: 6 }, 6)).toBe(
      "log\nab\n[output cut: 8 of 14 characters left out; the limit is 6]",
    );
  });

  it("never splits a surrogate pair", () => {
    expect(formatProgramOutput([], "ab\u{1F600}cd", NOTHING, 3)).toBe(
      "ab\n[output cut: 4 of 6 characters left out; the limit is 3]",
    );
  });

  it("keeps at most the limit and counts every character", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string()),
        fc.string(),
        fc.nat({ max: 50 }),
        fc.integer({ min: 1, max: 60 }),
        (logs, value, dropped, limit) => {
          const text = formatProgramOutput(logs, value, { logChars: dropped, valueChars: 0 }, limit);
          const whole = [...logs, ...(value === "" ? [] : [value])].join("\n");
          if (dropped === 0 && whole.length <= limit) {
            expect(text).toBe(whole);
            return;
          }
          const match = /\n?\[output cut: (\d+) of (\d+) characters left out; the limit is (\d+)\]$/.exec(text)!;
          const kept = text.slice(0, match.index);
          expect(kept.length).toBeLessThanOrEqual(limit);
          expect(whole.startsWith(kept)).toBe(true);
          expect(Number(match[1]) + kept.length).toBe(Number(match[2]));
          expect(Number(match[2])).toBe(whole.length + dropped);
        },
      ),
    );
  });
});

describe("cutPoint", () => {
  it("cuts at the limit, one earlier when that would split a surrogate pair", () => {
    expect(cutPoint("abcdef", 4)).toBe(4);
    expect(cutPoint("abc", 4)).toBe(3);
    expect(cutPoint("a\u{1F600}b", 2)).toBe(1);
  });
});
