import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyJson, MAX_JSON_DEPTH } from "./copy-json.js";

describe("copyJson", () => {
  it("agrees with JSON.stringify on any value it can encode, and never throws", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withNullPrototype: true }),
        (value) => {
          let json: string | undefined;
          let threw = false;
          try {
            json = JSON.stringify(value);
          } catch {
            threw = true;
          }
          const copied = copyJson(value, "value");
          expect(copied.ok).toBe(!threw);
          if (copied.ok) expect(JSON.stringify(copied.value)).toBe(json);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("shares no object with the original", () => {
    const original = { list: [{ a: 1 }], nested: { b: "x" } };
    const copied = copyJson(original, "value");
    expect(copied).toEqual({ ok: true, value: original });
    if (!copied.ok) return;
    const value = copied.value as typeof original;
    expect(value).not.toBe(original);
    expect(value.list).not.toBe(original.list);
    expect(value.list[0]).not.toBe(original.list[0]);
  });

  it("names the path of a throwing getter, a cycle, a BigInt and too deep a value", () => {
    const looped: { items: unknown[] } = { items: [] };
    looped.items.push({ back: looped });
    expect(copyJson(looped, "details")).toEqual({
      ok: false,
      problem: "details.items[0].back refers to itself (a cycle), which JSON cannot hold",
    });
    expect(copyJson({ "odd key": [1n] }, "v")).toEqual({
      ok: false,
      problem: 'v["odd key"][0] is a BigInt, which JSON cannot hold',
    });
    const getter = Object.defineProperty({}, "x", {
      enumerable: true,
      get() {
        throw new Error("nope");
      },
    });
    expect(copyJson({ a: getter }, "v")).toEqual({ ok: false, problem: "v.a.x could not be read (nope)" });
    let deep: unknown = 1;
    for (let level = 0; level < MAX_JSON_DEPTH + 1; level++) deep = [deep];
    const result = copyJson(deep, "v");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(/^v(\[0\]){100} is nested more than 100 levels deep$/);
  });

  it("keeps a shared (not cyclic) object twice, and a __proto__ key as data", () => {
    const shared = { n: 1 };
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}');
    expect(copyJson({ a: shared, b: shared }, "v")).toEqual({ ok: true, value: { a: { n: 1 }, b: { n: 1 } } });
    const copied = copyJson(parsed, "v");
    expect(copied.ok && Object.keys(copied.value as object)).toEqual(["__proto__"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("refuses an array claiming more elements than a copy visits, at once", () => {
    const liar = new Proxy([], { get: (target, key) => (key === "length" ? 2 ** 32 - 1 : Reflect.get(target, key)) });
    expect(copyJson(liar, "v")).toEqual({ ok: false, problem: "v is too large (more than 1000000 values)" });
  });
});
