// fromLangChainTools: LangChain's own tools (zod 3 and 4, JSON Schema, string tools) in a toolwire registry,
// dispatched by a session.
import { ToolMessage } from "@langchain/core/messages";
import { DynamicTool, tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { sessionWith } from "../../../test/support/session.js";
import { ToolDefinitionError } from "../../core/errors.js";
import type { ToolExecutionEndEvent } from "../../core/types.js";
import { fromLangChainTools } from "./from-langchain-tools.js";

const weather = tool(async ({ city, days }) => `${city}: sunny for ${days} days`, {
  name: "weather",
  description: "Tells the weather",
  schema: z.object({ city: z.string(), days: z.number().min(1).default(1) }),
});

describe("fromLangChainTools", () => {
  it("describes a zod 4 tool with the JSON Schema of the input it accepts", () => {
    const [converted] = fromLangChainTools([weather]);
    expect(converted?.descriptor).toMatchObject({
      name: "weather",
      description: "Tells the weather",
      owner: { kind: "core" },
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "number", minimum: 1, default: 1 } },
        required: ["city"],
      },
    });
  });

  it("runs a valid call through the tool's invoke, zod's default applied", async () => {
    const session = sessionWith(fromLangChainTools([weather]));
    const block = await session.dispatch({ id: "call_1", name: "weather", input: { city: "Oslo" } });
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: "Oslo: sunny for 1 days" }],
    });
  });

  it("refuses an invalid input with toolwire's validation error before the tool runs", async () => {
    let ran = false;
    const watched = tool(
      async () => {
        ran = true;
        return "ran";
      },
      { name: "watched", description: "Watched", schema: z.object({ count: z.number() }) },
    );
    const session = sessionWith(fromLangChainTools([watched]));
    const outcome = await session.dispatchDetailed({ id: "call_1", name: "watched", input: { count: "three" } });
    expect(outcome.errorCode).toBe("invalid-input");
    expect(outcome.block.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("input.count") });
    expect(ran).toBe(false);
  });

  it("lets the tool's own zod parse apply a transform, once", async () => {
    const measure = tool(async ({ word }) => `length ${word}`, {
      name: "measure",
      description: "Measures a word",
      schema: z.object({ word: z.string().transform((text) => text.length) }),
    });
    const block = await sessionWith(fromLangChainTools([measure])).dispatch({
      id: "call_1",
      name: "measure",
      input: { word: "hello" },
    });
    expect(block).toMatchObject({ content: [{ type: "text", text: "length 5" }] });
    expect(block.is_error).toBeUndefined();
  });

  it("fails a call as invalid-input when the tool's own zod check rejects what JSON Schema let through", async () => {
    const even = tool(async ({ n }) => String(n), {
      name: "even",
      description: "Takes an even number",
      schema: z.object({ n: z.number().refine((value) => value % 2 === 0, "n must be even") }),
    });
    const session = sessionWith(fromLangChainTools([even]));
    const outcome = await session.dispatchDetailed({ id: "call_1", name: "even", input: { n: 3 } });
    expect(outcome.errorCode).toBe("invalid-input");
    expect(outcome.block.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("n must be even") });
  });

  it("fails a call whose tool throws with the thrown message", async () => {
    const broken = tool(
      async () => {
        throw new Error("the weather service is down");
      },
      { name: "broken", description: "Throws", schema: z.object({}) },
    );
    const session = sessionWith(fromLangChainTools([broken]));
    const ended: ToolExecutionEndEvent[] = [];
    session.on("tool_execution_end", (event) => ended.push(event));
    const block = await session.dispatch({ id: "call_1", name: "broken", input: {} });
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: "Tool broken failed: the weather service is down" }],
      is_error: true,
    });
    expect(ended[0]?.errorCode).toBe("execution-failed");
  });

  it("keeps a content-and-artifact tool's artifact as details, and its image blocks", async () => {
    const plot = tool(
      async () => [
        [
          { type: "text", text: "a plot" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
        { points: 3 },
      ],
      { name: "plot", description: "Plots", schema: z.object({}), responseFormat: "content_and_artifact" },
    );
    const outcome = await sessionWith(fromLangChainTools([plot])).dispatchDetailed({
      id: "call_1",
      name: "plot",
      input: {},
    });
    expect(outcome.block.content).toEqual([
      { type: "text", text: "a plot" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ]);
    expect(outcome.result.details).toEqual({ points: 3 });
  });

  it("turns a ToolMessage the tool returns with status error into an error result", async () => {
    const refusing = tool(
      async (_input, config) =>
        new ToolMessage({ status: "error", content: "quota used up", tool_call_id: config.toolCall?.id ?? "" }),
      { name: "refusing", description: "Refuses", schema: z.object({}) },
    );
    const outcome = await sessionWith(fromLangChainTools([refusing])).dispatchDetailed({
      id: "call_1",
      name: "refusing",
      input: {},
    });
    expect(outcome.block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: "quota used up" }],
      is_error: true,
    });
  });

  it("passes the call's id and abort signal to the tool", async () => {
    const seen: unknown[] = [];
    const probe = tool(
      async (_input, config) => {
        seen.push(config.toolCall?.id, config.signal instanceof AbortSignal);
        return "ok";
      },
      { name: "probe", description: "Probes", schema: z.object({}) },
    );
    await sessionWith(fromLangChainTools([probe])).dispatch({ id: "call_42", name: "probe", input: {} });
    expect(seen).toEqual(["call_42", true]);
  });

  it("ends a call whose tool waits past an abort as aborted", async () => {
    const waiting = tool(() => new Promise<string>(() => {}), {
      name: "waiting",
      description: "Never answers",
      schema: z.object({}),
    });
    const controller = new AbortController();
    const pending = sessionWith(fromLangChainTools([waiting])).dispatchDetailed(
      { id: "call_1", name: "waiting", input: {} },
      { signal: controller.signal },
    );
    controller.abort();
    expect((await pending).errorCode).toBe("aborted");
  });

  it("takes a zod 3 schema and a plain JSON Schema", async () => {
    const legacy = tool(async ({ word }) => word.toUpperCase(), {
      name: "shout",
      description: "Shouts",
      schema: z3.object({ word: z3.string() }),
    });
    const plain = tool(async (input: { q: string }) => `found ${input.q}`, {
      name: "search",
      description: "Searches",
      schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    });
    const converted = fromLangChainTools([legacy, plain]);
    expect(converted.map((each) => each.descriptor.inputSchema)).toMatchObject([
      { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
      { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    ]);
    const session = sessionWith(converted);
    const blocks = await session.dispatchAll([
      { id: "call_1", name: "shout", input: { word: "hi" } },
      { id: "call_2", name: "search", input: { q: "docs" } },
    ]);
    expect(blocks.map((block) => block.content)).toEqual([
      [{ type: "text", text: "HI" }],
      [{ type: "text", text: "found docs" }],
    ]);
  });

  it("takes a string tool, whose input is { input }", async () => {
    const echo = new DynamicTool({ name: "echo", description: "Echoes", func: async (text) => `echo: ${text}` });
    const session = sessionWith(fromLangChainTools([echo]));
    const block = await session.dispatch({ id: "call_1", name: "echo", input: { input: "hello" } });
    expect(block.content).toEqual([{ type: "text", text: "echo: hello" }]);
  });

  it("fails a call whose tool returns a LangGraph Command, which a session cannot carry out", async () => {
    const jumping = tool(async () => new Command({ goto: "elsewhere" }), {
      name: "jumping",
      description: "Jumps",
      schema: z.object({}),
    });
    const outcome = await sessionWith(fromLangChainTools([jumping])).dispatchDetailed({
      id: "call_1",
      name: "jumping",
      input: {},
    });
    expect(outcome.errorCode).toBe("execution-failed");
    expect(outcome.block.content[0]).toMatchObject({ text: expect.stringContaining("returned a LangGraph Command") });
  });

  it("throws ToolDefinitionError for a tool whose name toolwire cannot take", () => {
    const dotted = tool(async () => "", { name: "weather.today", description: "Dotted", schema: z.object({}) });
    expect(() => fromLangChainTools([dotted])).toThrow(ToolDefinitionError);
  });
});
