// OpenAI strict mode: what converts, what cannot, and that a strict result always keeps OpenAI's published rules.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openAIStrictViolations } from "../../test/support/provider-request-rules.js";
import type { JsonObject } from "../core/types.js";
import { toOpenAIStrictSchema } from "./openai-strict-schema.js";

const name = fc.stringMatching(/^[a-z]{1,6}$/);

/** Schemas strict mode can carry once converted: oneOf, const, default, type lists, allOf, formats, bounds, refs. */
const convertible = fc.letrec<{ node: JsonObject }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<JsonObject>(
      { type: "string", default: "x", minLength: 1, maxLength: 9 },
      { type: "string", format: "uri", description: "A link." },
      { type: "string", format: "date-time", pattern: "^2" },
      { type: "integer", minimum: 0, exclusiveMaximum: 10, default: 3 },
      { type: "number", minimum: 0, exclusiveMinimum: true },
      { type: "boolean", default: false },
      { type: ["string", "null"] },
      { type: ["string", "number"], minimum: 1, pattern: "a" },
      { enum: ["a", "b", null] },
      { enum: [1, "two"] },
      { const: "fixed" },
      { type: "string", $schema: "x", examples: ["e"], title: "T", deprecated: true },
      { $ref: "#/$defs/leaf" },
      { $ref: "#/definitions/old" },
      { $ref: "#/properties/shared" },
    ),
    fc.record({ type: fc.constant("array"), items: tie("node"), uniqueItems: fc.boolean(), maxItems: fc.nat(5) }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }), default: fc.jsonValue() }),
    fc.dictionary(name, tie("node"), { minKeys: 1, maxKeys: 3 }).map((properties) => ({
      allOf: [{ type: "object", properties }, { required: Object.keys(properties).slice(0, 1) }],
    })),
    fc.dictionary(name, tie("node"), { minKeys: 1, maxKeys: 4 }).chain((properties) =>
      fc
        .record({
          type: fc.constant("object"),
          properties: fc.constant(properties),
          required: fc.subarray(Object.keys(properties)),
          additionalProperties: fc.constantFrom(true, false, undefined),
          propertyNames: fc.constant({ pattern: "^[a-z]+$" }),
          default: fc.constant({}),
        })
        .map((node) => JSON.parse(JSON.stringify(node)) as JsonObject),
    ),
  ) as fc.Arbitrary<JsonObject>,
}));

/** Anything a tool may send: the convertible kinds and the ones strict mode cannot carry. */
const anySchema = fc.letrec<{ node: JsonObject }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    convertible.node,
    fc.constantFrom<JsonObject>(
      {},
      { description: "anything" },
      { type: "object" },
      { type: "object", additionalProperties: { type: "string" } },
      { type: "array" },
      { type: "array", items: [{ type: "string" }] },
      { type: "string", not: { const: "" } },
      { $ref: "#/$defs/missing" },
      { $ref: "https://example.com/schema" },
      { type: "date" },
    ),
    fc.record({ type: fc.constant("array"), items: tie("node") }),
    fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.dictionary(name, tie("node"), { maxKeys: 4 }).chain((properties) =>
      fc.record({
        type: fc.constant("object"),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
      }),
    ),
  ) as fc.Arbitrary<JsonObject>,
}));

function root(node: fc.Arbitrary<JsonObject>): fc.Arbitrary<JsonObject> {
  return fc.dictionary(name, node, { maxKeys: 4 }).chain((properties) =>
    fc.record({
      $schema: fc.constant("http://json-schema.org/draft-07/schema#"),
      type: fc.constant("object"),
      properties: fc.constant({ ...properties, shared: { type: "string" } }),
      required: fc.subarray(Object.keys(properties)),
      $defs: fc.constant({
        leaf: { type: "object", properties: { next: { $ref: "#/$defs/leaf" }, v: { type: "string", default: "v" } } },
        unused: { type: "object" },
      }),
      definitions: fc.constant({ old: { oneOf: [{ type: "string" }, { type: "integer" }] } }),
    }),
  );
}

describe("toOpenAIStrictSchema", () => {
  it("gives a schema that keeps OpenAI's strict rules whenever it says strict, and reasons whenever not", () => {
    fc.assert(
      fc.property(root(anySchema.node), (schema) => {
        const before = JSON.stringify(schema);
        const result = toOpenAIStrictSchema(schema);
        expect(JSON.stringify(schema)).toBe(before);
        if (result.strict) expect(openAIStrictViolations(result.schema)).toEqual([]);
        else expect(result.reasons.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it("makes strict every schema of the kinds it can convert", () => {
    fc.assert(
      fc.property(root(convertible.node), (schema) => {
        const result = toOpenAIStrictSchema(schema);
        expect(result.strict ? [] : result.reasons).toEqual([]);
        expect(openAIStrictViolations(result.schema)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("turns oneOf into anyOf, const into enum and moves default, length and format into the description", () => {
    const result = toOpenAIStrictSchema({
      type: "object",
      properties: {
        mode: { oneOf: [{ const: "a" }, { const: "b" }], default: "a" },
        path: { type: "string", description: "Where.", format: "uri", minLength: 1, default: "/" },
      },
      required: ["mode"],
      propertyNames: { pattern: "^[a-z]+$" },
    });
    expect(result).toEqual({
      strict: true,
      schema: {
        type: "object",
        properties: {
          mode: {
            anyOf: [
              { type: "string", enum: ["a"] },
              { type: "string", enum: ["b"] },
            ],
            description: 'Default: "a".',
          },
          path: { type: ["string", "null"], description: 'Where. Format: uri. Default: "/". Minimum length: 1.' },
        },
        required: ["mode", "path"],
        additionalProperties: false,
      },
    });
  });

  it("says why a schema cannot be strict, with the path to each place", () => {
    const result = toOpenAIStrictSchema({
      type: "object",
      properties: {
        anything: { description: "Any value." },
        map: { type: "object", additionalProperties: { type: "number" } },
        list: { type: "array" },
      },
    });
    expect(result.strict).toBe(false);
    expect(result.strict ? [] : result.reasons).toEqual([
      "#/properties/anything: accepts any value (no type)",
      "#/properties/map: takes keys of its choosing (additionalProperties is a schema)",
      "#/properties/list: an array without items (accepts any items)",
    ]);
  });

  it("keeps a definition named __proto__ as a definition, and ends (it once looped forever)", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"a":{"$ref":"#/$defs/__proto__"}},"required":["a"],' +
        '"$defs":{"__proto__":{"type":"object","properties":{"b":{"$ref":"#/$defs/leaf"}},"required":["b"]},' +
        '"leaf":{"type":"string"}}}',
    );
    const result = toOpenAIStrictSchema(schema);
    expect(result.strict).toBe(true);
    expect(Object.keys(result.schema.$defs as object)).toEqual(["__proto__", "leaf"]);
    expect(Object.getPrototypeOf(result.schema.$defs)).toBe(Object.prototype);
  });

  it("keeps a property named __proto__ as a property, listed in required as every other", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"b":{"type":"number"}}}');
    const result = toOpenAIStrictSchema(schema);
    expect(result.strict).toBe(true);
    const properties = result.schema.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(result.schema.required).toEqual(["__proto__", "b"]);
  });
});
