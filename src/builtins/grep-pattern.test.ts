import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGrepPattern, plainTextOf } from "./grep-pattern.js";

// Characters that are plain in a pattern, special ones, and the ones decoding and line splitting treat apart.
const char = fc.constantFrom("a", "b", "é", "😀", " ", "/", "-", ".", "*", "(", "[", "\\", "\r", "\n", "\uFFFD");
const text = (maxLength: number) => fc.array(char, { maxLength }).map((chars) => chars.join(""));

describe("plainTextOf", () => {
  it("offers bytes only for text that every matching line contains (property)", () => {
    fc.assert(
      fc.property(
        text(4).filter((pattern) => pattern !== ""),
        fc.boolean(),
        fc.array(
          fc.oneof(
            text(3).map((piece) => Buffer.from(piece, "utf8")),
            fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xc3])),
          ),
          { maxLength: 5 },
        ),
        (pattern, literal, pieces) => {
          const options = { ignoreCase: false, literal };
          let test: (line: string) => boolean;
          try {
            test = compileGrepPattern(pattern, options);
          } catch {
            return; // a pattern grep refuses has no lines to match
          }
          const plain = plainTextOf(pattern, options);
          if (plain === undefined) return;
          // As grep reads a file (text and stray bytes that are not UTF-8): its bytes, decoded, split into lines
          // without their carriage return.
          const bytes = Buffer.concat(pieces);
          const lines = bytes
            .toString("utf8")
            .split("\n")
            .map((line) => line.replace(/\r$/, ""));
          if (lines.some(test)) expect(bytes.includes(plain)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is the pattern's bytes for literal text and plain regular expressions, and nothing otherwise", () => {
    expect(plainTextOf("zebra_4711", { ignoreCase: false, literal: false })).toEqual(Buffer.from("zebra_4711"));
    expect(plainTextOf("a.b(c)", { ignoreCase: false, literal: true })).toEqual(Buffer.from("a.b(c)"));
    expect(plainTextOf("café", { ignoreCase: false, literal: false })).toEqual(Buffer.from("café"));
    for (const pattern of ["a.b", "a|b", "\\w", "x+", "(?i)x", "[a]", "a{2}", "^a", "a$"]) {
      expect(plainTextOf(pattern, { ignoreCase: false, literal: false }), pattern).toBeUndefined();
    }
    expect(plainTextOf("abc", { ignoreCase: true, literal: true })).toBeUndefined();
    expect(plainTextOf("x".repeat(65), { ignoreCase: false, literal: true })).toBeUndefined();
    expect(plainTextOf("a\uFFFDb", { ignoreCase: false, literal: true })).toBeUndefined();
    expect(plainTextOf("a\uD800", { ignoreCase: false, literal: true })).toBeUndefined();
  });
});
