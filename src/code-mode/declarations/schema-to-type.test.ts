// schemaToType: each JSON Schema keyword MCP servers send, as the TypeScript a model reads; total over junk.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { typeCheck } from "../../../test/support/type-check.js";
import type { JsonObject } from "../../core/types.js";
import { declareTools } from "./declare-tools.js";
import { schemaToType } from "./schema-to-type.js";

const text = (schema: unknown) => schemaToType(schema).text;

describe("schemaToType", () => {
  it("types scalars, type arrays and nullable", () => {
    expect(text({ type: "string", format: "uri" })).toBe("string");
    expect(text({ type: "integer" })).toBe("number");
    expect(text({ type: ["string", "null"] })).toBe("string | null");
    expect(text({ type: "number", nullable: true })).toBe("number | null");
    expect(text({ type: ["string", "null"], nullable: true })).toBe("string | null");
  });

  it("types const and enum as literals", () => {
    expect(text({ const: "a\u2028b" })).toBe('"a\\u2028b"');
    expect(text({ enum: ["x", 2, true, null] })).toBe('"x" | 2 | true | null');
    expect(text({ const: { kind: "k", at: [1, -2.5] } })).toBe('{ kind: "k"; at: [1, -2.5] }');
    expect(text({ enum: [] })).toBe("never");
  });

  it("types anyOf and oneOf as unions and allOf as an intersection, in parentheses where needed", () => {
    expect(text({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(text({ type: "array", items: { oneOf: [{ type: "string" }, { type: "boolean" }] } })).toBe(
      "(string | boolean)[]",
    );
    expect(
      text({
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          {
            anyOf: [
              { type: "object", properties: { b: { const: 1 } } },
              { type: "object", properties: { c: {} } },
            ],
          },
        ],
      }),
    ).toBe("{ a: string } & ({ b?: 1 } | { c?: unknown })");
  });

  it("types properties with required ones, descriptions and defaults as doc comments", () => {
    const schema = {
      type: "object",
      properties: {
        path: { type: "string", description: "Where.\n  Relative to the root." },
        "max-depth": { type: "integer", default: 3 },
        mode: { enum: ["fast", "slow"], description: "How", default: "fast" },
      },
      required: ["path"],
    };
    expect(text(schema)).toBe(
      [
        "{",
        "  /** Where. Relative to the root. */",
        "  path: string;",
        "  /** Default: 3. */",
        '  "max-depth"?: number;',
        '  /** How. Default: "fast". */',
        '  mode?: "fast" | "slow";',
        "}",
      ].join("\n"),
    );
    expect(schemaToType(schema).required).toBe(true);
    expect(schemaToType({ type: "object", properties: { a: {} } }).required).toBe(false);
  });

  it("types additionalProperties as a record, or an unknown index signature beside named properties", () => {
    expect(text({ type: "object" })).toBe("Record<string, unknown>");
    expect(text({ type: "object", additionalProperties: { type: "number" } })).toBe("Record<string, number>");
    expect(text({ type: "object", additionalProperties: false })).toBe("{}");
    expect(
      text({ type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }),
    ).toBe("{ a?: string; [key: string]: unknown }");
  });

  it("types items as arrays and prefixItems as tuples", () => {
    expect(text({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(text({ type: "array" })).toBe("unknown[]");
    expect(text({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }] })).toBe("[string, number]");
    expect(text({ prefixItems: [{ type: "string" }], items: { type: "boolean" } })).toBe("[string, ...boolean[]]");
    expect(text({ type: "array", items: [{ type: "string" }], additionalItems: { type: "null" } })).toBe(
      "[string, ...null[]]",
    );
  });

  it("follows local refs into $defs and definitions", () => {
    const schema = {
      type: "object",
      properties: { item: { $ref: "#/$defs/Item" }, tag: { $ref: "#/definitions/a~1b" } },
      required: ["item"],
      $defs: { Item: { type: "object", properties: { id: { type: "string" } }, description: "One item." } },
      definitions: { "a/b": { enum: ["x", "y"] } },
    };
    expect(text(schema)).toBe('{\n  /** One item. */\n  item: { id?: string };\n  tag?: "x" | "y";\n}');
  });

  it("ends a $ref cycle in unknown", () => {
    const tree = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
    };
    expect(text(tree)).toBe("{ name?: string; children?: { name?: string; children?: unknown[] }[] }");
    const mutual = {
      $ref: "#/$defs/A",
      $defs: { A: { anyOf: [{ $ref: "#/$defs/B" }, { type: "string" }] }, B: { $ref: "#/$defs/A" } },
    };
    expect(text(mutual)).toBe("unknown");
  });

  it("stays bounded on a schema of many shared refs", () => {
    // Each level refers to the next six times: expanded in full it would be 6^40 nodes.
    const $defs = Object.fromEntries(
      Array.from({ length: 40 }, (_, level) => [
        `L${level}`,
        {
          type: "object",
          properties: Object.fromEntries([..."abcdef"].map((key) => [key, { $ref: `#/$defs/L${level + 1}` }])),
        },
      ]),
    );
    const { text: type } = schemaToType({ $ref: "#/$defs/L0", $defs });
    expect(type.length).toBeLessThan(1_000_000);
    expect(type).toContain("unknown");
  });

  it("types what it does not know, remote refs and broken pointers as unknown", () => {
    expect(text({})).toBe("unknown");
    expect(text({ not: { type: "string" }, if: {}, "x-custom": 1 })).toBe("unknown");
    expect(text({ type: "bigint" })).toBe("unknown");
    expect(text({ $ref: "https://example.com/schema.json" })).toBe("unknown");
    expect(text({ $ref: "#/$defs/%E0%A4%A" })).toBe("unknown");
    expect(text({ type: "string", $ref: "#/nowhere" })).toBe("string");
    expect(text(true)).toBe("unknown");
    expect(text(false)).toBe("never");
    expect(text("junk")).toBe("unknown");
  });
});

// ---------------------------------------------------------------- any schema at all

const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom(
    "*/",
    "/*",
    "*/ declare const pwned: number; /*",
    "\u2028",
    "\u2029",
    "\r\n",
    "__proto__",
    "constructor",
    "toString",
    "get-issue",
    "0",
    "",
    " ",
    '"',
    "\\",
    "}",
    "`$" + "{x}`",
    "\ud800",
    "key",
  ),
);
const ref = fc.oneof(
  fc.constantFrom("#", "#/", "#/$defs/a", "#/$defs/b", "#/definitions/a", "#/properties/a", "#/$defs/%", "x"),
  hostileText,
);
const typeName = fc.constantFrom("string", "number", "integer", "boolean", "null", "array", "object", "bigint");
const { schema } = fc.letrec<{ schema: unknown; object: JsonObject }>((tie) => ({
  // Past maxDepth the first, flat choice is taken, so a sample stays small.
  schema: fc.oneof(
    { depthSize: "small", maxDepth: 4, withCrossShrink: true },
    { arbitrary: fc.constantFrom<unknown>({ type: "string" }, {}, true, false), weight: 1 },
    { arbitrary: tie("object"), weight: 6 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 1 }), weight: 1 },
  ),
  object: fc.oneof(
    fc.record(
      {
        type: fc.oneof(typeName, fc.array(typeName, { maxLength: 3 }), hostileText),
        properties: fc.oneof(fc.dictionary(hostileText, tie("schema"), { maxKeys: 4 }), fc.jsonValue({ maxDepth: 1 })),
        required: fc.oneof(fc.array(hostileText, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        additionalProperties: tie("schema"),
        items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 3 })),
        prefixItems: fc.oneof(fc.array(tie("schema"), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        additionalItems: tie("schema"),
        anyOf: fc.oneof(fc.array(tie("schema"), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        oneOf: fc.array(tie("schema"), { maxLength: 3 }),
        allOf: fc.array(tie("schema"), { maxLength: 3 }),
        $ref: ref,
        $defs: fc.dictionary(fc.constantFrom("a", "b", "%"), tie("schema"), { maxKeys: 2 }),
        definitions: fc.dictionary(fc.constantFrom("a", "b"), tie("schema"), { maxKeys: 2 }),
        nullable: fc.jsonValue({ maxDepth: 0 }),
        description: hostileText,
        default: fc.jsonValue({ maxDepth: 1 }),
        format: hostileText,
        junk: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        const: fc.jsonValue({ maxDepth: 2 }),
        enum: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
        description: hostileText,
      },
      { requiredKeys: [] },
    ),
  ) as fc.Arbitrary<JsonObject>,
}));
const tools = fc.array(
  fc.record(
    { name: hostileText, description: hostileText, inputSchema: schema, outputSchema: schema },
    { requiredKeys: ["name", "description", "inputSchema"] },
  ),
  { minLength: 1, maxLength: 6 },
) as fc.Arbitrary<{ name: string; description: string; inputSchema: JsonObject; outputSchema?: JsonObject }[]>;
const budget = fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined });

describe("declarations of arbitrary schemas", () => {
  it("are made without throwing, always the same, for any schema", () => {
    fc.assert(
      fc.property(tools, budget, (list, budgetTokens) => {
        const options = budgetTokens === undefined ? {} : { budgetTokens };
        expect(declareTools(list, options).text).toBe(declareTools(list, options).text);
      }),
      { numRuns: 200 },
    );
  });

  it("type-check, text and each full declaration", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(tools, budget), { minLength: 10, maxLength: 10 }), (samples) => {
        const files: Record<string, string> = {};
        samples.forEach(([list, budgetTokens], index) => {
          const declarations = declareTools(list, budgetTokens === undefined ? {} : { budgetTokens });
          files[`/text-${index}.ts`] = declarations.text;
          files[`/each-${index}.ts`] = `declare const tools: {\n${[...declarations.byName.values()].join("\n")}\n};`;
        });
        expect(typeCheck(files)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });
});
