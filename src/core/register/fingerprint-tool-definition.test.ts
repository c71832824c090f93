// Fingerprints of listed definitions: canonical (key order does not count), and changed by any change of a covered part.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../approve/input-digest.js";
import type { JsonObject, PinnedToolDefinition } from "../types.js";
import {
  describeDefinitionChange,
  fingerprintToolDefinition,
  pinToolDefinition,
} from "./fingerprint-tool-definition.js";

const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), {
  maxKeys: 5,
}) as fc.Arbitrary<JsonObject>;
const definition: fc.Arbitrary<PinnedToolDefinition> = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 10 }),
    title: fc.string({ maxLength: 10 }),
    description: fc.string({ maxLength: 30 }),
    inputSchema: object,
    outputSchema: object,
    annotations: object,
  },
  { requiredKeys: ["name"] },
);
const PARTS = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"] as const;
const WORDS: Record<(typeof PARTS)[number], string> = {
  name: "name",
  title: "title",
  description: "description",
  inputSchema: "input schema",
  outputSchema: "output schema",
  annotations: "annotations",
};

/** The same value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, {
      value: reversed((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe("fingerprintToolDefinition", () => {
  it("is sha256: and the hex SHA-256 of the definition's RFC 8785 canonical JSON", () => {
    const pinned: PinnedToolDefinition = {
      name: "ping",
      description: "Answers pong.",
      inputSchema: { type: "object" },
    };
    const canonical = '{"description":"Answers pong.","inputSchema":{"type":"object"},"name":"ping"}';
    expect(canonicalJson(pinned)).toBe(canonical);
    expect(fingerprintToolDefinition(pinned)).toBe(`sha256:${createHash("sha256").update(canonical).digest("hex")}`);
  });

  it("for any definition: the order of keys, at any depth, does not change it", () => {
    fc.assert(
      fc.property(definition, (pinned) => {
        const shuffled = reversed(pinned) as PinnedToolDefinition;
        expect(fingerprintToolDefinition(shuffled)).toBe(fingerprintToolDefinition(pinned));
        expect(fingerprintToolDefinition(pinned)).toMatch(/^sha256:[0-9a-f]{64}$/);
      }),
    );
  });

  it("for any definition and any covered part: another value, or leaving it out, changes it and names that part", () => {
    const values = {
      name: fc.string({ minLength: 1, maxLength: 10 }),
      title: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
      description: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
      inputSchema: fc.option(object, { nil: undefined }),
      outputSchema: fc.option(object, { nil: undefined }),
      annotations: fc.option(object, { nil: undefined }),
    };
    const changed = fc
      .constantFrom(...PARTS)
      .chain((part) => fc.tuple(definition, fc.constant(part), values[part] as fc.Arbitrary<unknown>));
    fc.assert(
      fc.property(changed, ([before, part, value]) => {
        const after: Record<string, unknown> = { ...before, [part]: value };
        if (value === undefined) delete after[part];
        fc.pre(canonicalJson(before[part]) !== canonicalJson(after[part]));
        const changedDefinition = after as unknown as PinnedToolDefinition;
        expect(fingerprintToolDefinition(changedDefinition)).not.toBe(fingerprintToolDefinition(before));
        const words = describeDefinitionChange(before, changedDefinition);
        expect(words).toHaveLength(1);
        expect(words[0]?.startsWith(WORDS[part])).toBe(true);
      }),
    );
  });
});

describe("pinToolDefinition", () => {
  it("takes the covered parts as listed, leaves out absent and mistyped ones, and ignores the rest", () => {
    const listed = {
      name: "ping",
      description: "Answers pong.",
      title: 7,
      inputSchema: { type: "object" },
      icons: [{ src: "https://example.com/a.png" }],
      _meta: { owner: "team" },
    };
    const pin = pinToolDefinition(listed);
    expect(pin.definition).toEqual({ name: "ping", description: "Answers pong.", inputSchema: { type: "object" } });
    expect(pinToolDefinition({ ...listed, _meta: { owner: "other" }, icons: [] }).fingerprint).toBe(pin.fingerprint);
    expect(pinToolDefinition({ ...listed, description: "" }).fingerprint).not.toBe(pin.fingerprint);
  });

  it("names the annotation keys that changed", () => {
    const before: PinnedToolDefinition = { name: "t", annotations: { readOnlyHint: true, title: "T" } };
    expect(describeDefinitionChange(before, { name: "t", annotations: { title: "U", destructiveHint: true } })).toEqual(
      ["annotations (destructiveHint, readOnlyHint, title)"],
    );
    expect(describeDefinitionChange(before, { name: "t" })).toEqual(["annotations (readOnlyHint, title)"]);
  });
});
