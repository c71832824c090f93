import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionWith } from "../../../test/support/session.js";
import { createStateSeal, MIN_SECRET_BYTES } from "./state-seal.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

function refusal(make: () => unknown): Error {
  try {
    make();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
}

describe("createStateSeal", () => {
  it("refuses a secret under 32 bytes (UTF-8), naming the minimum and never the secret (fast-check)", () => {
    expect(MIN_SECRET_BYTES).toBe(32);
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 6, maxLength: 31 }).filter((secret) => bytes(secret) < 32),
        (secret) => {
          const error = refusal(() => createStateSeal(secret));
          expect(error).toBeInstanceOf(TypeError);
          expect(error.message).toMatch(/^approvals\.secret must be a string of at least 32 bytes \(UTF-8\)/);
          expect(error.message).not.toContain(secret);
        },
      ),
      { numRuns: 200 },
    );
    for (const weak of ["", "a", "password", "a".repeat(31), "\u00e9".repeat(15)]) {
      expect(() => createStateSeal(weak), JSON.stringify(weak)).toThrow(TypeError);
    }
  });

  it("counts the secret's UTF-8 bytes, not its characters: 32 bytes sign and verify, however many characters", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 8, maxLength: 64 }).filter((secret) => bytes(secret) >= 32),
        fc.jsonValue(),
        (secret, body) => {
          const seal = createStateSeal(secret);
          const other = createStateSeal(`${secret}.`);
          const signature = seal.sign(body as never);
          expect(seal.verify(body as never, signature)).toBe(true);
          expect(other.verify(body as never, signature)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
    expect(() => createStateSeal("a".repeat(32))).not.toThrow();
    expect(() => createStateSeal("\u00e9".repeat(16))).not.toThrow(); // 16 characters, 32 bytes
    expect(() => createStateSeal("\u{1F511}".repeat(8))).not.toThrow(); // 8 code points, 32 bytes
  });

  it("createAgentSession refuses approvals with a weak secret, and the message does not repeat it", () => {
    const error = refusal(() => sessionWith([], { approvals: { require: ["*"], secret: "password" } }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain("at least 32 bytes");
    expect(error.message).not.toContain("password");
    expect(() => sessionWith([], { approvals: { require: ["*"], secret: "x".repeat(32) } })).not.toThrow();
  });
});
