import { describe, expect, it } from "vitest";
import { createAgentSession as createCoreSession } from "../core/dispatch/session.js";
import type { InputValidatorFactory } from "../core/dispatch/validate.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { JsonObject } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { createAjvValidator } from "./ajv-validator.js";

describe("createAjvValidator", () => {
  it("validates draft-07 schemas as MCP servers send them ($schema included)", () => {
    const validate = createAjvValidator({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    expect(validate({ message: "hi" })).toBeUndefined();
    expect(validate({})).toEqual([{ path: "input.message", message: "missing required property (expected string)" }]);
  });

  it("validates draft 2020-12 schemas (prefixItems) when the schema says so", () => {
    const validate = createAjvValidator({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
    });
    expect(validate({ pair: ["a", 1] })).toBeUndefined();
    expect(validate({ pair: ["a", "b"] })).toEqual([
      { path: "input.pair[1]", message: 'must be number, got string "b"' },
    ]);
  });

  it("accepts a draft-04 schema (no meta-schema needed to validate)", () => {
    const validate = createAjvValidator({
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { n: { type: "integer" } },
    });
    expect(validate({ n: 1.5 })).toEqual([{ path: "input.n", message: "must be integer, got number 1.5" }]);
  });

  it("checks formats", () => {
    const validate = createAjvValidator({ type: "object", properties: { url: { type: "string", format: "uri" } } });
    expect(validate({ url: "https://example.test/x" })).toBeUndefined();
    expect(validate({ url: "not a uri" })?.[0]?.path).toBe("input.url");
  });

  it("quotes keys that are not identifiers", () => {
    const validate = createAjvValidator({
      type: "object",
      properties: { "file-name": { type: "string" } },
      required: ["file-name"],
    });
    expect(validate({})?.[0]?.path).toBe('input["file-name"]');
  });

  it("shares one compiled validator between equal schemas in different objects", () => {
    const schema = () => ({ type: "object", properties: { q: { type: "string", minLength: 7 } } });
    expect(createAjvValidator(schema())).toBe(createAjvValidator(schema()));
  });
});

describe("validator compilation in a session", () => {
  function countingFactory() {
    const compiled: JsonObject[] = [];
    const factory: InputValidatorFactory = (schema) => {
      compiled.push(schema);
      return createAjvValidator(schema);
    };
    return { compiled, factory };
  }

  it("compiles once per schema: not per call, not per refresh, and not before the first call", async () => {
    const { compiled, factory } = countingFactory();
    const tools = ["a", "b", "c"].map((name) =>
      defineTool({
        name,
        description: name,
        inputSchema: { type: "object", properties: { x: { type: "number" } } },
        execute: () => name,
      }),
    );
    const registry = createToolRegistry({ custom: tools });
    const session = createCoreSession({ registry, validator: factory });
    expect(compiled).toHaveLength(0);
    for (let round = 0; round < 5; round++) {
      registry.refresh();
      await session.dispatchAll([
        { id: "1", name: "a", input: { x: round } },
        { id: "2", name: "a", input: { x: "bad" } },
        { id: "3", name: "b", input: {} },
      ]);
    }
    expect(compiled).toHaveLength(2);
  });

  it("turns a schema that cannot compile into an error result for that tool only", async () => {
    const broken = defineTool({
      name: "broken",
      description: "b",
      inputSchema: { type: "object", properties: { x: { $ref: "#/definitions/missing" } } },
      execute: () => "never",
    });
    const fine = defineTool({ name: "fine", description: "f", inputSchema: { type: "object" }, execute: () => "ok" });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [broken, fine] }) });
    const [first, second] = await session.dispatchAll([
      { id: "1", name: "broken", input: {} },
      { id: "2", name: "fine", input: {} },
    ]);
    expect(first?.is_error).toBe(true);
    expect(first?.content[0]).toMatchObject({ text: expect.stringContaining("input schema cannot be compiled") });
    expect(second?.content).toEqual([{ type: "text", text: "ok" }]);
  });
});
