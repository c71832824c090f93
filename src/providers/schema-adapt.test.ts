// Schema adaptation: OpenAI strict mode, Gemini's subset, and the per-schema cache.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRecord } from "../core/json.js";
import type { JsonObject } from "../core/types.js";
import { adaptSchema, strictSchemaOf, toGeminiSchema } from "./schema-adapt.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Every node of a schema with the path to it (properties, items, anyOf and $defs children). */
function* nodes(schema: unknown, path = "#"): Generator<[string, Record<string, unknown>]> {
  if (!isRecord(schema)) return;
  yield [path, schema];
  for (const key of ["properties", "$defs", "definitions"]) {
    const children = schema[key];
    if (isRecord(children))
      for (const [name, child] of Object.entries(children)) yield* nodes(child, `${path}/${key}/${name}`);
  }
  for (const key of ["items", "anyOf", "oneOf", "allOf"]) {
    const children = schema[key];
    if (Array.isArray(children))
      for (const [index, child] of children.entries()) yield* nodes(child, `${path}/${key}/${index}`);
    else if (isRecord(children)) yield* nodes(children, `${path}/${key}`);
  }
}

/** Arbitrary JSON Schemas of the kinds tools use: nested objects, arrays, unions, enums, refs. */
const schemaArbitrary = fc.letrec<{ schema: JsonObject }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<JsonObject>(
      { type: "string" },
      { type: "integer", minimum: 0 },
      { type: "number", exclusiveMaximum: 10 },
      { type: "boolean" },
      { type: ["string", "null"] },
      { type: "string", format: "uri" },
      { type: "string", format: "date-time" },
      { enum: ["a", "b", null] },
      { enum: [1, 2, 3] },
      { const: "fixed" },
      { $ref: "#/$defs/leaf" },
      {},
    ),
    fc.record({ type: fc.constant("array"), items: tie("schema") }),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("schema"), { maxKeys: 4 }).chain((properties) =>
      fc.record({
        type: fc.constant("object"),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
        additionalProperties: fc.boolean(),
      }),
    ),
  ) as fc.Arbitrary<JsonObject>,
}));

const rootArbitrary = fc
  .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), schemaArbitrary.schema, { minKeys: 1, maxKeys: 4 })
  .map(
    (properties): JsonObject => ({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties,
      $defs: { leaf: { type: "object", properties: { next: { $ref: "#/$defs/leaf" }, v: { type: "string" } } } },
    }),
  );

const GEMINI_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

describe("strictSchemaOf", () => {
  it("closes every object, requires every property and lets the optional ones be null", () => {
    const schema = deepFreeze({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        name: { type: "string" },
        tags: { type: "array", items: { type: "object", properties: { key: { type: "string" } } } },
        mode: { type: "string", enum: ["fast", "slow"] },
        either: { anyOf: [{ type: "string" }, { type: "number" }] },
        ref: { $ref: "#/$defs/thing" },
        maybe: { type: ["string", "null"] },
      },
      required: ["name"],
      $defs: { thing: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } },
    } as const);
    expect(strictSchemaOf(schema).schema).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        tags: {
          type: ["array", "null"],
          items: {
            type: "object",
            properties: { key: { type: ["string", "null"] } },
            required: ["key"],
            additionalProperties: false,
          },
        },
        mode: { type: ["string", "null"], enum: ["fast", "slow", null] },
        either: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
        ref: { anyOf: [{ $ref: "#/$defs/thing" }, { type: "null" }] },
        maybe: { type: ["string", "null"] },
      },
      required: ["name", "tags", "mode", "either", "ref", "maybe"],
      $defs: {
        thing: {
          type: "object",
          properties: { id: { type: "integer" } },
          required: ["id"],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    });
  });

  it("holds OpenAI's strict rules on any schema, without changing the input", () => {
    fc.assert(
      fc.property(rootArbitrary, (schema) => {
        const before = JSON.stringify(schema);
        const strict = strictSchemaOf(deepFreeze(schema)).schema;
        expect(JSON.stringify(schema)).toBe(before);
        expect(JSON.stringify(strict)).not.toContain("$schema");
        for (const [path, node] of nodes(strict)) {
          const isObject = node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
          if (!isObject) continue;
          expect(node.additionalProperties, path).toBe(false);
          expect(node.required, path).toEqual(Object.keys((node.properties as object) ?? {}));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("toGeminiSchema", () => {
  it("inlines refs, turns type lists into nullable, oneOf into anyOf, const into enum, and drops the rest", () => {
    const schema = deepFreeze({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      additionalProperties: false,
      properties: {
        note: { type: ["string", "null"], format: "uri", description: "A link." },
        count: { type: "integer", format: "int32", exclusiveMinimum: 0 },
        level: { enum: [1, 2, 3], description: "How loud." },
        kind: { const: "fixed" },
        shape: { oneOf: [{ type: "string" }, { $ref: "#/$defs/point" }] },
        merged: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { properties: { b: { type: "number" } } },
          ],
        },
        tree: { $ref: "#/$defs/node" },
      },
      required: ["note", "gone"],
      $defs: {
        point: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false },
        node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } },
      },
    } as const);
    expect(toGeminiSchema(schema)).toEqual({
      type: "object",
      properties: {
        note: { type: "string", nullable: true, description: "A link." },
        count: { type: "integer", format: "int32", minimum: 0 },
        level: { description: "How loud. Allowed values: 1, 2, 3." },
        kind: { enum: ["fixed"], type: "string" },
        shape: { anyOf: [{ type: "string" }, { type: "object", properties: { x: { type: "number" } } }] },
        merged: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "number" } },
          required: ["a"],
        },
        tree: { type: "object", properties: { child: { type: "object" } } },
      },
      required: ["note"],
    });
  });

  it("keeps a property named __proto__ as a property, and its place in required", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    );
    const converted = toGeminiSchema(schema) as JsonObject;
    expect(Object.keys(converted.properties as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(converted.properties)).toBe(Object.prototype);
    expect(converted.required).toEqual(["__proto__"]);
  });

  it("keeps only the fields Gemini accepts, on any schema", () => {
    fc.assert(
      fc.property(rootArbitrary, (schema) => {
        const converted = toGeminiSchema(deepFreeze(schema));
        for (const [path, node] of nodes(converted)) {
          for (const key of Object.keys(node)) expect(GEMINI_KEYS.has(key), `${path}: ${key}`).toBe(true);
          if (node.type !== undefined) expect(typeof node.type, path).toBe("string");
          if (node.enum !== undefined)
            expect((node.enum as unknown[]).every((value) => typeof value === "string")).toBe(true);
          if (Array.isArray(node.required)) {
            expect(
              node.required.every((name) => Object.hasOwn((node.properties as object) ?? {}, name)),
              path,
            ).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("adaptSchema", () => {
  it("converts a schema once per variant and hands back the same object after", () => {
    const schema = deepFreeze({ type: "object", properties: { a: { type: "array" } } } as JsonObject);
    const forOpenAI = adaptSchema(schema, "openai");
    expect(adaptSchema(schema, "openai")).toBe(forOpenAI);
    expect(strictSchemaOf(schema)).toBe(strictSchemaOf(schema));
    const forGemini = adaptSchema(schema, "gemini");
    expect(adaptSchema(schema, "gemini")).toBe(forGemini);
    expect(forGemini).not.toBe(forOpenAI);
  });
});
