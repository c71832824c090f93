import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksBinary } from "./file-kind.js";

/** What looksBinary answered before its UTF-8 fast path: a NUL byte, or bytes a streaming strict decoder refuses. */
function reference(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

describe("looksBinary", () => {
  it("answers as the streaming strict decoder does, for text, cut characters and invalid bytes (property)", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 6 }).map((value) => [...Buffer.from(value, "utf8")]),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 3 }),
      fc.constantFrom([0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xf0, 0x9f, 0x98]),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const head = Uint8Array.from(pieces.flat());
        expect(looksBinary(head)).toBe(reference(head));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps a character cut at the end of the window, and refuses a NUL byte", () => {
    expect(looksBinary(Buffer.from([0x61, 0xe2, 0x82]))).toBe(false);
    expect(looksBinary(Buffer.from([0x61, 0xe2, 0x28]))).toBe(true);
    expect(looksBinary(Buffer.from("a\0b"))).toBe(true);
  });
});
