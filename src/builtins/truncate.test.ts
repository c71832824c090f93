import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutUtf8Head, cutUtf8Tail, truncateHead, truncateTail } from "./truncate.js";

const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

describe("truncate", () => {
  it("keeps everything under both limits", () => {
    const result = truncateHead("a\nb\n");
    expect(result).toMatchObject({ text: "a\nb", truncated: false, totalLines: 2, keptLines: 2 });
  });

  it("keeps the first 2000 lines by default", () => {
    const result = truncateHead(lines(2500));
    expect(result).toMatchObject({ truncated: true, truncatedBy: "lines", keptLines: 2000, totalLines: 2500 });
    expect(result.text.endsWith("line 2000")).toBe(true);
  });

  it("keeps the last lines when cutting the tail", () => {
    const result = truncateTail(lines(2500));
    expect(result.text.startsWith("line 501\n")).toBe(true);
    expect(result.text.endsWith("line 2500")).toBe(true);
  });

  it("stops at the byte limit on a whole line", () => {
    const result = truncateHead(lines(100), { maxBytes: 30 });
    expect(result).toMatchObject({ text: "line 1\nline 2\nline 3\nline 4", truncatedBy: "bytes", keptBytes: 27 });
  });

  it("cuts a single line over the byte limit, never inside a character", () => {
    const result = truncateHead("ééééé", { maxBytes: 5 });
    expect(result).toMatchObject({ text: "éé", lineCut: true, truncated: true });
    expect(truncateTail("xéééé", { maxBytes: 5 }).text).toBe("éé");
  });

  it("never exceeds the limits and keeps a prefix (head) or suffix (tail) of whole lines (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "grapheme", maxLength: 30 }).map((line) => line.replaceAll("\n", "")),
          { maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 4, max: 400 }),
        (input, maxLines, maxBytes) => {
          const text = input.join("\n");
          for (const keep of ["head", "tail"] as const) {
            const result =
              keep === "head" ? truncateHead(text, { maxLines, maxBytes }) : truncateTail(text, { maxLines, maxBytes });
            expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(maxBytes);
            expect(result.keptLines).toBeLessThanOrEqual(maxLines);
            // Cutting never splits a character into a replacement character.
            if (result.text.includes("\uFFFD")) expect(text.includes("\uFFFD")).toBe(true);
            if (!result.lineCut) {
              if (keep === "head") expect(text.startsWith(result.text)).toBe(true);
              // splitLines drops the empty line after a final newline.
              else expect(text.replace(/\n$/, "").endsWith(result.text)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("cuts UTF-8 on character boundaries", () => {
    expect(cutUtf8Head("a😀b", 4)).toBe("a");
    expect(cutUtf8Tail("a😀b", 4)).toBe("b");
    expect(cutUtf8Tail("a😀b", 5)).toBe("😀b");
  });
});
