// mergeExtraBody: the user's extra fields win, objects merge key by key, nothing else of the body is lost.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeExtraBody } from "./merge-extra-body.js";

const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;
const record = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 5 });

describe("mergeExtraBody", () => {
  it("keeps the body's other fields inside an object both have, and replaces lists whole", () => {
    const body = { generationConfig: { temperature: 0.5, stopSequences: ["END"] }, contents: [1] };
    const merged = mergeExtraBody(body, { generationConfig: { topK: 40, stopSequences: ["STOP"] }, contents: [2] });
    expect(merged).toEqual({
      generationConfig: { temperature: 0.5, stopSequences: ["STOP"], topK: 40 },
      contents: [2],
    });
    expect(body.generationConfig).toEqual({ temperature: 0.5, stopSequences: ["END"] });
  });

  it("takes a __proto__ key as a field, not as the result's prototype", () => {
    const merged = mergeExtraBody({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(JSON.parse('{"a": 1, "__proto__": {"polluted": true}}'));
  });

  it("for any two JSON objects: each key of the extra holds its value (merged where both are objects), the rest is the body's", () => {
    fc.assert(
      fc.property(record, record, (body, extra) => {
        const merged = mergeExtraBody(body, extra);
        for (const [key, value] of Object.entries(extra)) {
          const before = body[key];
          const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
          if (isObject(before) && isObject(value)) {
            expect(merged[key]).toEqual(
              mergeExtraBody(before as Record<string, unknown>, value as Record<string, unknown>),
            );
          } else expect(merged[key]).toEqual(value);
        }
        for (const key of Object.keys(body)) if (!Object.hasOwn(extra, key)) expect(merged[key]).toEqual(body[key]);
        expect(Object.keys(merged).sort()).toEqual([...new Set([...Object.keys(body), ...Object.keys(extra)])].sort());
      }),
    );
  });
});
