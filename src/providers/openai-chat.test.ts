// OpenAI Chat Completions: arguments text, strict mode, and the `Error: ` prefix.
import { describe, expect, it } from "vitest";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import { createAgentSession } from "../create-agent-session.js";
import { openaiChat } from "./openai-chat.js";

function completionWithArguments(...args: unknown[]) {
  return {
    choices: [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: args.map((value, index) => ({
            id: `call_${index}`,
            type: "function",
            function: { name: "search", arguments: value },
          })),
        },
      },
    ],
  };
}

const search = defineTool({
  name: "search",
  description: "Search the notes.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string" },
      limit: { type: "integer", minimum: 1 },
      filter: {
        type: "object",
        properties: { tag: { type: "string" }, after: { type: "string" } },
        required: ["tag"],
      },
    },
    required: ["query"],
  },
  execute: (input) => JSON.stringify(input),
});

describe("openaiChat", () => {
  it("parses arguments text into the input object", () => {
    const [call] = openaiChat.parseToolCalls(completionWithArguments('{"query":"x","limit":3}'));
    expect(call).toEqual({ id: "call_0", name: "search", input: { query: "x", limit: 3 } });
  });

  it("reads an empty or blank arguments string as {}", () => {
    const calls = openaiChat.parseToolCalls(completionWithArguments("", "  "));
    expect(calls.map((call) => call.input)).toEqual([{}, {}]);
  });

  it("keeps invalid arguments text as it is, so dispatch can tell the model what was wrong", async () => {
    const calls = openaiChat.parseToolCalls(completionWithArguments('{"query": "x"', "[1,2]"));
    expect(calls.map((call) => call.input)).toEqual(['{"query": "x"', [1, 2]]);
    const session = createAgentSession({ registry: createToolRegistry({ custom: [search] }) });
    const [broken, array] = await session.dispatchAll(calls);
    expect(broken).toMatchObject({ is_error: true });
    expect(broken?.content[0]).toMatchObject({ text: expect.stringContaining("not valid JSON") });
    expect(array?.content[0]).toMatchObject({ text: expect.stringContaining("expected a JSON object, got an array") });
  });

  it("prefixes an error result's text with `Error: ` and leaves a success as it is", () => {
    const calls = openaiChat.parseToolCalls(completionWithArguments("{}", "{}"));
    const messages = openaiChat.formatToolResults(
      [
        { type: "tool_result", tool_use_id: "call_0", content: [{ type: "text", text: "12 notes" }] },
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            { type: "text", text: "line one" },
            { type: "text", text: "line two" },
          ],
          is_error: true,
        },
      ],
      calls,
    );
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "call_0", content: "12 notes" },
      { role: "tool", tool_call_id: "call_1", content: "Error: line one\nline two" },
    ]);
  });

  it("sends strict tools with the adapted schema and plain tools with the schema as it is", () => {
    const [plain] = openaiChat.formatTools([search]);
    expect(plain?.function).toEqual({
      name: "search",
      description: "Search the notes.",
      parameters: search.descriptor.inputSchema,
    });
    expect(plain?.function.parameters).toBe(search.descriptor.inputSchema);
    const [strict] = openaiChat.formatTools([search], { strict: true });
    expect(strict?.function.strict).toBe(true);
    expect(strict?.function.parameters).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: ["integer", "null"], minimum: 1 },
        filter: {
          type: ["object", "null"],
          properties: { tag: { type: "string" }, after: { type: ["string", "null"] } },
          required: ["tag", "after"],
          additionalProperties: false,
        },
      },
      required: ["query", "limit", "filter"],
      additionalProperties: false,
    });
  });

  it("dispatches a strict-mode call whose optional properties are null as if they were absent", async () => {
    const session = createAgentSession({ registry: createToolRegistry({ custom: [search] }) });
    // What a strict-mode model sends: every property present, the ones it does not use as null.
    const calls = openaiChat.parseToolCalls(
      completionWithArguments(
        '{"query":"x","limit":null,"filter":null}',
        '{"query":"y","limit":null,"filter":{"tag":"t","after":null}}',
      ),
    );
    const results = await session.dispatchAll(calls);
    expect(results.map((result) => result.is_error ?? false)).toEqual([false, false]);
    expect(results.map((result) => result.content[0])).toEqual([
      { type: "text", text: '{"query":"x"}' },
      { type: "text", text: '{"query":"y","filter":{"tag":"t"}}' },
    ]);
  });

  it("still refuses a null for a required property in strict mode", async () => {
    const session = createAgentSession({ registry: createToolRegistry({ custom: [search] }) });
    const calls = openaiChat.parseToolCalls(completionWithArguments('{"query":null,"limit":null,"filter":null}'));
    const [result] = await session.dispatchAll(calls);
    expect(result?.is_error).toBe(true);
    expect(result?.content[0]).toMatchObject({ text: expect.stringContaining("query") });
  });
});
