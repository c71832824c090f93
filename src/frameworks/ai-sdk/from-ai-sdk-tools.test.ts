import { jsonSchema, type ToolExecutionOptions, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { ToolDefinitionError } from "../../core/errors.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { ToolResult } from "../../core/types.js";
import { createAgentSession } from "../../create-agent-session.js";
import { fromAiSdkTools } from "./from-ai-sdk-tools.js";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("fromAiSdkTools", () => {
  it("runs a zod-typed AI SDK tool through a toolwire session, with the schema converted to JSON Schema", async () => {
    const seen: { input: unknown; options: ToolExecutionOptions }[] = [];
    const [weather] = fromAiSdkTools({
      weather: tool({
        description: "The weather in a city",
        inputSchema: z.object({ city: z.string(), unit: z.enum(["C", "F"]).default("C") }),
        execute: async (input, options) => {
          seen.push({ input, options });
          return { city: input.city, degrees: 21, unit: input.unit };
        },
      }),
    });
    expect(weather?.descriptor).toMatchObject({
      name: "weather",
      description: "The weather in a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const session = sessionWith(weather === undefined ? [] : [weather]);
    const outcome = await session.dispatchDetailed({ id: "call_1", name: "weather", input: { city: "Oslo" } });
    expect(outcome.block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: '{"city":"Oslo","degrees":21,"unit":"C"}' }],
    });
    expect(outcome.result.details).toEqual({ city: "Oslo", degrees: 21, unit: "C" });
    expect(seen[0]?.input).toEqual({ city: "Oslo", unit: "C" }); // zod's default applied
    expect(seen[0]?.options.toolCallId).toBe("call_1");
    expect(seen[0]?.options.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it("takes a jsonSchema(...) tool, and a string output is the result's text", async () => {
    const session = sessionWith(
      fromAiSdkTools({
        greet: tool({
          description: "Greets",
          inputSchema: jsonSchema<{ name: string }>({
            type: "object",
            properties: { name: { type: "string" } },
            required: ["name"],
          }),
          execute: async ({ name }) => `hello ${name}`,
        }),
      }),
    );
    expect(textOf(await session.dispatch({ id: "1", name: "greet", input: { name: "Ada" } }))).toBe("hello Ada");
  });

  it("an input that breaks the converted schema is refused by toolwire before execute", async () => {
    let runs = 0;
    const session = sessionWith(
      fromAiSdkTools({
        add: tool({
          description: "Adds",
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: async ({ a, b }) => {
            runs++;
            return a + b;
          },
        }),
      }),
    );
    const outcome = await session.dispatchDetailed({ id: "1", name: "add", input: { a: "2", b: 3 } });
    expect(outcome.errorCode).toBe("invalid-input");
    expect(textOf(outcome.block)).toContain('- input.a: must be number, got string "2"');
    expect(runs).toBe(0);
  });

  it("an input the tool's own schema refuses (a refinement JSON Schema cannot say) is invalid-input", async () => {
    let runs = 0;
    const session = sessionWith(
      fromAiSdkTools({
        even: tool({
          description: "Takes an even number",
          inputSchema: z.object({ n: z.number().refine((n) => n % 2 === 0, "must be even") }),
          execute: async () => {
            runs++;
            return "ok";
          },
        }),
      }),
    );
    const outcome = await session.dispatchDetailed({ id: "1", name: "even", input: { n: 3 } });
    expect(outcome.errorCode).toBe("invalid-input");
    expect(textOf(outcome.block)).toBe(
      "Invalid input for tool even:\n- input.n: must be even\nFix these fields and call even again.",
    );
    expect(runs).toBe(0);
  });

  it("an execute that throws is the call's failure, with its message for the model", async () => {
    const session = sessionWith(
      fromAiSdkTools({
        fail: tool({
          description: "Fails",
          inputSchema: z.object({}),
          execute: async (): Promise<string> => {
            throw new Error("the disk is full");
          },
        }),
      }),
    );
    const outcome = await session.dispatchDetailed({ id: "1", name: "fail", input: {} });
    expect(outcome.errorCode).toBe("execution-failed");
    expect(outcome.block).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: "Tool fail failed: the disk is full" }],
    });
  });

  it("shows the model what the tool's toModelOutput says: content parts become text and image blocks", async () => {
    const session = sessionWith(
      fromAiSdkTools({
        snap: tool({
          description: "Screenshot",
          inputSchema: z.object({}),
          execute: async () => ({ png: PIXEL }),
          toModelOutput: ({ output }) => ({
            type: "content",
            value: [
              { type: "text", text: "the screen:" },
              { type: "image-data", data: output.png, mediaType: "image/png" },
              { type: "file-url", url: "https://example.test/a/report.pdf", mediaType: "application/pdf" },
            ],
          }),
        }),
      }),
    );
    const outcome = await session.dispatchDetailed({ id: "1", name: "snap", input: {} });
    expect(outcome.block.content).toEqual([
      { type: "text", text: "the screen:" },
      { type: "image", data: PIXEL, mimeType: "image/png" },
      {
        type: "resource_link",
        uri: "https://example.test/a/report.pdf",
        name: "report.pdf",
        mimeType: "application/pdf",
      },
    ]);
    expect(outcome.result.details).toEqual({ png: PIXEL });
  });

  it("a toModelOutput that answers error-text makes an error result", async () => {
    const session = sessionWith(
      fromAiSdkTools({
        lookup: tool({
          description: "Looks up",
          inputSchema: z.object({}),
          execute: async () => ({ found: false }),
          toModelOutput: () => ({ type: "error-text", value: "nothing found" }),
        }),
      }),
    );
    const block = await session.dispatch({ id: "1", name: "lookup", input: {} });
    expect(block).toMatchObject({ is_error: true, content: [{ type: "text", text: "nothing found" }] });
  });

  it("values an execute streams before its last reach tool_execution_update; the last is the result", async () => {
    const session = sessionWith(
      fromAiSdkTools({
        count: tool({
          description: "Counts",
          inputSchema: z.object({}),
          async *execute() {
            yield "one";
            yield "two";
            yield "three";
          },
        }),
      }),
    );
    const updates: ToolResult[] = [];
    session.on("tool_execution_update", (event) => updates.push(event.partial));
    expect(textOf(await session.dispatch({ id: "1", name: "count", input: {} }))).toBe("three");
    expect(updates.map((update) => update.content[0])).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
  });

  it("the registry's policy applies to them through their owner", () => {
    const tools = fromAiSdkTools(
      {
        a: tool({ description: "A", inputSchema: z.object({}), execute: async () => "a" }),
        b: tool({ description: "B", inputSchema: z.object({}), execute: async () => "b" }),
      },
      { owner: { kind: "plugin", pluginId: "ai-sdk" } },
    );
    const session = createAgentSession({
      registry: createToolRegistry({ extensions: tools, policy: [{ label: "project", deny: ["plugin:ai-sdk"] }] }),
    });
    expect(session.activeToolNames).toEqual([]);
    expect(createToolRegistry({ extensions: tools }).tools.size).toBe(2);
  });

  it("hands options.context to execute as experimental_context", async () => {
    const contexts: unknown[] = [];
    const session = sessionWith(
      fromAiSdkTools(
        {
          who: tool({
            description: "Who",
            inputSchema: z.object({}),
            execute: async (_input, { experimental_context }) => {
              contexts.push(experimental_context);
              return "me";
            },
          }),
        },
        { context: { userId: "u1" } },
      ),
    );
    await session.dispatch({ id: "1", name: "who", input: {} });
    expect(contexts).toEqual([{ userId: "u1" }]);
  });

  it("refuses a tool without execute, and a provider-defined tool, naming the tool", () => {
    const clientSide = { client: tool({ description: "Asks the user", inputSchema: z.object({}) }) };
    expect(() => fromAiSdkTools(clientSide)).toThrow(ToolDefinitionError);
    expect(() => fromAiSdkTools(clientSide)).toThrow("AI SDK tool client: it has no execute function");
    const provider = {
      search: { type: "provider", id: "openai.web_search", args: {}, inputSchema: z.object({}) },
    } as never;
    expect(() => fromAiSdkTools(provider)).toThrow(
      expect.objectContaining({ code: "invalid-tool-definition", toolName: "search" }),
    );
  });

  it("refuses a name toolwire cannot give a model, and a schema that is not an object schema", () => {
    const named = { "has space": tool({ description: "x", inputSchema: z.object({}), execute: async () => "x" }) };
    expect(() => fromAiSdkTools(named)).toThrow(expect.objectContaining({ code: "invalid-tool-definition" }));
    const scalar = { scalar: tool({ description: "x", inputSchema: z.string(), execute: async () => "x" }) };
    expect(() => fromAiSdkTools(scalar)).toThrow(
      expect.objectContaining({ code: "invalid-schema", toolName: "scalar" }),
    );
  });
});
