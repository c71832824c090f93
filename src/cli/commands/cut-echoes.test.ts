// cutEchoes and longPieces: huge names and inputs repeated in an error message come out cut, everything else as it was.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutEchoes, longPieces, MAX_ECHO_CHARS } from "./cut-echoes.js";

describe("longPieces", () => {
  it("takes the tool name, the input text, and the input's long keys and strings, also JSON-escaped", () => {
    const key = "k".repeat(300);
    const value = `say "${"v".repeat(300)}"`;
    const input = JSON.stringify({ [key]: [{ deep: value }], short: "s" });
    const pieces = longPieces("t".repeat(250), input);
    expect(pieces).toEqual(
      expect.arrayContaining([input, "t".repeat(250), key, value, JSON.stringify(value).slice(1, -1)]),
    );
    expect(pieces).not.toContain("s");
    expect(longPieces("read", '{"path":"a.txt"}')).toEqual([]);
  });

  it("walks input nested 100,000 levels deep without overflowing, and skips input that is not JSON", () => {
    const deep = `${"[".repeat(100_000)}"${"x".repeat(300)}"${"]".repeat(100_000)}`;
    expect(longPieces("read", deep)).toContain("x".repeat(300));
    const broken = `{"path": ${"y".repeat(300)}`;
    expect(longPieces("read", broken)).toEqual([JSON.stringify(broken).slice(1, -1), broken]);
  });
});

describe("cutEchoes", () => {
  it("shows the first 200 characters of a repeated piece and how long it was", () => {
    const name = "n".repeat(100_000);
    const text = cutEchoes(`Tool ${name} not found. Available tools: read.`, longPieces(name, undefined));
    expect(text).toBe(`Tool ${"n".repeat(MAX_ECHO_CHARS)}… (100000 characters) not found. Available tools: read.`);
  });

  it("never leaves a long piece whole in the text, and leaves text without one unchanged", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: MAX_ECHO_CHARS + 1, maxLength: 600 }),
        fc.string({ maxLength: 50 }),
        fc.string({ maxLength: 50 }),
        (piece, before, after) => {
          const pieces = longPieces(piece, undefined);
          const cut = cutEchoes(`${before}${piece}${after}${piece}`, pieces);
          expect(cut.includes(piece)).toBe(false);
          expect(cut.length).toBeLessThan(2 * (MAX_ECHO_CHARS + 30) + before.length + after.length);
          expect(cutEchoes(before + after, pieces)).toBe(before + after);
        },
      ),
      { numRuns: 200 },
    );
  });
});
