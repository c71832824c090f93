import Type from "typebox";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { ToolCallError, ToolDefinitionError } from "../errors.js";
import type { JsonObject, ToolCallContext } from "../types.js";
import { defineTool } from "./define-tool.js";

const context: ToolCallContext = { toolCallId: "c1", signal: new AbortController().signal, onUpdate: () => {} };

function definitionError(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error("expected a ToolDefinitionError");
}

describe("defineTool", () => {
  it("takes plain JSON Schema and infers the input type from an `as const` schema", async () => {
    const tool = defineTool({
      name: "add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" }, label: { type: "string", enum: ["x", "y"] } },
        required: ["a", "b"],
      },
      execute: async (input) => {
        expectTypeOf(input).toEqualTypeOf<{ a: number; b: number; label?: "x" | "y" }>();
        return String(input.a + input.b);
      },
    });
    expect(await tool.execute({ a: 1, b: 2 }, context)).toBe("3");
    expect(tool.descriptor.inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" }, label: { type: "string", enum: ["x", "y"] } },
      required: ["a", "b"],
    });
  });

  it("takes a TypeBox 1.x schema as JSON Schema and infers its static type", async () => {
    const schema = Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) });
    const tool = defineTool({
      name: "read_it",
      description: "Reads",
      inputSchema: schema,
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ path: string; limit?: number }>();
        return `${input.path}:${input.limit ?? "all"}`;
      },
    });
    expect(tool.descriptor.inputSchema).toEqual({
      type: "object",
      required: ["path"],
      properties: { path: { type: "string" }, limit: { type: "integer" } },
    });
    expect(await tool.execute({ path: "a" }, context)).toBe("a:all");
  });

  it("converts a zod 4 schema to JSON Schema once and parses input with it (defaults apply)", async () => {
    const tool = defineTool({
      name: "greet",
      description: "Greets",
      inputSchema: z.object({ who: z.string(), times: z.number().int().default(2) }),
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ who: string; times: number }>();
        return `${input.who} x${input.times}`;
      },
    });
    expect(tool.descriptor.inputSchema).toMatchObject({
      type: "object",
      properties: { who: { type: "string" } },
      required: ["who"],
    });
    expect(await tool.execute({ who: "ada" } as JsonObject, context)).toBe("ada x2");
  });

  it("reports a zod parse failure as an invalid-input ToolCallError with the path", async () => {
    const tool = defineTool({
      name: "greet",
      description: "Greets",
      inputSchema: z.object({ who: z.string().min(3) }),
      execute: (input) => input.who,
    });
    const error = await Promise.resolve(tool.execute({ who: "x" }, context)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).code).toBe("invalid-input");
    expect((error as ToolCallError).message).toContain("input.who");
  });

  it("freezes a JSON copy of the schema so later mutation of the original changes nothing", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } } as Record<string, unknown>;
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, execute: () => "" });
    (schema.properties as Record<string, unknown>).b = { type: "number" };
    expect(Object.keys(tool.descriptor.inputSchema.properties as object)).toEqual(["a"]);
    expect(Object.isFrozen(tool.descriptor.inputSchema)).toBe(true);
    expect(Object.isFrozen(tool.descriptor.inputSchema.properties)).toBe(true);
  });

  it("defaults the owner to core and derives the executor ref from the owner", () => {
    const base = { description: "d", inputSchema: { type: "object" }, execute: () => "" } as const;
    expect(defineTool({ name: "a", ...base }).descriptor).toMatchObject({
      owner: { kind: "core" },
      executor: { kind: "core", executorId: "a" },
    });
    expect(defineTool({ name: "b", ...base, owner: { kind: "plugin", pluginId: "p" } }).descriptor.executor).toEqual({
      kind: "plugin",
      pluginId: "p",
      toolName: "b",
    });
    expect(defineTool({ name: "c", ...base, owner: { kind: "mcp", serverId: "s" } }).descriptor.executor).toEqual({
      kind: "mcp",
      serverId: "s",
      toolName: "c",
    });
    expect(defineTool({ name: "d", ...base, owner: { kind: "channel", channelId: "ch" } }).descriptor.executor).toEqual(
      {
        kind: "channel",
        channelId: "ch",
        actionId: "d",
      },
    );
    const explicit = { kind: "core", executorId: "other" } as const;
    expect(defineTool({ name: "e", ...base, executor: explicit }).descriptor.executor).toEqual(explicit);
  });

  it("carries the optional descriptor fields, mode and timeout, and omits absent ones", () => {
    const tool = defineTool({
      name: "t",
      title: "T",
      description: "d",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
      availability: { kind: "env", name: "X" },
      sortKey: "0",
      executionMode: "sequential",
      timeoutMs: 50,
      execute: () => "",
    });
    expect(tool.descriptor).toMatchObject({ title: "T", annotations: { readOnlyHint: true }, sortKey: "0" });
    expect(tool.executionMode).toBe("sequential");
    expect(tool.timeoutMs).toBe(50);
    const plain = defineTool({ name: "p", description: "d", inputSchema: { type: "object" }, execute: () => "" });
    expect(Object.keys(plain.descriptor).sort()).toEqual(["description", "executor", "inputSchema", "name", "owner"]);
    expect("timeoutMs" in plain).toBe(false);
  });

  it("takes timeoutMs Infinity for a tool whose executor may run as long as it needs", () => {
    const tool = defineTool({
      name: "t",
      description: "d",
      inputSchema: { type: "object" },
      timeoutMs: Infinity,
      execute: () => "",
    });
    expect(tool.timeoutMs).toBe(Infinity);
  });

  it.each([
    ["a bad name", { name: "no spaces" }, "invalid-tool-definition"],
    ["a missing description", { description: undefined }, "invalid-tool-definition"],
    ["a missing execute", { execute: undefined }, "invalid-tool-definition"],
    ["a bad execution mode", { executionMode: "eventually" }, "invalid-tool-definition"],
    ["a negative timeout", { timeoutMs: -1 }, "invalid-tool-definition"],
    ["a timeout that is not a number", { timeoutMs: Number.NaN }, "invalid-tool-definition"],
    ["a non-object schema", { inputSchema: { type: "string" } }, "invalid-schema"],
    ["a schema that is not JSON", { inputSchema: { type: "object", default: 1n } }, "invalid-schema"],
    [
      "a Standard Schema without JSON Schema output",
      { inputSchema: { "~standard": { version: 1, vendor: "x", validate: () => ({ value: {} }) } } },
      "invalid-schema",
    ],
  ])("throws a ToolDefinitionError for %s", (_, override, code) => {
    const definition = {
      name: "ok",
      description: "d",
      inputSchema: { type: "object" },
      execute: () => "",
      ...override,
    };
    const error = definitionError(() => defineTool(definition as never));
    expect(error.code).toBe(code);
  });
});

describe("defineTool defer", () => {
  const base = { name: "t", description: "d", inputSchema: { type: "object" }, execute: () => "" } as const;

  it("marks the descriptor defer: true, and leaves it out otherwise", () => {
    expect(defineTool({ ...base, defer: true }).descriptor.defer).toBe(true);
    expect("defer" in defineTool({ ...base, defer: false }).descriptor).toBe(false);
    expect("defer" in defineTool(base).descriptor).toBe(false);
  });

  it("refuses a defer that is not a boolean", () => {
    expect(() => defineTool({ ...base, defer: "yes" as unknown as boolean })).toThrow(
      expect.objectContaining({ code: "invalid-tool-definition" }),
    );
  });
});
