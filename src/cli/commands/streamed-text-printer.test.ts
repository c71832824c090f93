// Streamed text prints exactly as the whole text would, however it is split.
import { describe, expect, it } from "vitest";
import { createStreamedTextPrinter } from "./streamed-text-printer.js";

function printer() {
  let written = "";
  const output = { color: false, write: (text: string) => (written += text) };
  return { printer: createStreamedTextPrinter(output), written: () => written };
}

/** How `run` prints a whole text (its `model_text` line). */
const whole = (text: string) => `model  ${text.trim().replaceAll("\n", "\n       ")}\n`;

describe("createStreamedTextPrinter", () => {
  it("prints what the whole text prints, for every split of it", () => {
    const text = "\n  First line.  \nSecond line\n\n  indented. \n";
    for (let cut = 0; cut <= text.length; cut++) {
      for (let second = cut; second <= text.length; second++) {
        const { printer: p, written } = printer();
        for (const piece of [text.slice(0, cut), text.slice(cut, second), text.slice(second)]) p.write(piece);
        expect(p.end()).toBe(true);
        expect(written()).toBe(whole(text));
      }
    }
  });

  it("prints nothing, and ends no line, for text that is only whitespace", () => {
    const { printer: p, written } = printer();
    p.write("  \n ");
    expect(p.open).toBe(false);
    expect(p.end()).toBe(false);
    expect(written()).toBe("");
  });

  it("is open from the first printed piece until end", () => {
    const { printer: p } = printer();
    p.write("Hi");
    expect(p.open).toBe(true);
    p.end();
    expect(p.open).toBe(false);
  });
});
