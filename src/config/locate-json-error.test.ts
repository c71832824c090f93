// locateJsonError: agrees with JSON.parse on what is JSON, and points at the line and column where it breaks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateJsonError } from "./locate-json-error.js";

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("locateJsonError", () => {
  it.each([
    ['{\n  "a": 1,\n}', 2, 9, 'trailing comma: remove the "," before "}"'],
    ['{\n  "a": tru\n}', 2, 8, 'expected a value (object, array, string, number, true, false or null), found "t"'],
    ['{"a" 1}', 1, 6, 'expected ":" after the property name, found "1"'],
    ["{'a': 1}", 1, 2, 'expected a property name in double quotes, found "\'"'],
    ['{"a": [1 2]}', 1, 10, 'expected "," or "]" after an array element, found "2"'],
    ['{"a": "x\ny"}', 1, 9, "a string cannot hold a raw line break or control character (write \\n)"],
    ['{\n  // note\n  "a": 1\n}', 2, 3, "comments are not allowed in JSON"],
    ['{"a": "open', 1, 7, "unterminated string: missing its closing quote"],
    ["", 1, 1, "expected a value (object, array, string, number, true, false or null), found the end of the text"],
    ["{} x", 1, 4, 'unexpected "x" after the JSON value'],
  ])("locates the fault in %j at line %i, column %i", (text, line, column, message) => {
    expect(locateJsonError(text)).toMatchObject({ line, column, message });
  });

  it("finds nothing wrong in valid JSON", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(locateJsonError(text)).toBeUndefined();
      }),
    );
  });

  it("finds a fault exactly when JSON.parse refuses the text, inside the text", () => {
    const damaged = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom("", ",", "}", "]", '"', "'", "x", "\n", ":", "/"), fc.boolean())
      .map(([text, at, insert, remove]) => {
        const index = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, index) + insert + text.slice(index + (remove ? 1 : 0));
      });
    fc.assert(
      fc.property(damaged, (text) => {
        const location = locateJsonError(text);
        expect(location === undefined).toBe(parses(text));
        if (location !== undefined) expect(location.offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 1000 },
    );
  });
});
