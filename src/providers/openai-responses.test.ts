// OpenAI Responses: the strict flag on every tool, call_id pairing, and image output parts.
import { describe, expect, it } from "vitest";
import { TOOL_SEARCH_DEFINITION } from "../core/defer/create-tool-search-tool.js";
import type { ToolDescriptor, ToolResultBlock } from "../core/types.js";
import { formatResponsesToolSearch, openaiResponses } from "./openai-responses.js";

const lookup: ToolDescriptor = Object.freeze<ToolDescriptor>({
  name: "lookup",
  description: "Look a word up.",
  inputSchema: { type: "object", properties: { word: { type: "string" } } },
  owner: { kind: "core" },
});

describe("openaiResponses", () => {
  it("marks tools strict: false unless strict mode is asked for", () => {
    expect(openaiResponses.formatTools([lookup])).toEqual([
      {
        type: "function",
        name: "lookup",
        description: "Look a word up.",
        parameters: lookup.inputSchema,
        strict: false,
      },
    ]);
    expect(openaiResponses.formatTools([lookup], { strict: true })).toEqual([
      {
        type: "function",
        name: "lookup",
        description: "Look a word up.",
        parameters: {
          type: "object",
          properties: { word: { type: ["string", "null"] } },
          required: ["word"],
          additionalProperties: false,
        },
        strict: true,
      },
    ]);
  });

  it("answers a call by its call_id, not by its item id", () => {
    const calls = openaiResponses.parseToolCalls({
      output: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Looking." }] },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "lookup", arguments: '{"word":"a"}' },
      ],
    });
    expect(calls).toEqual([{ id: "call_1", name: "lookup", input: { word: "a" } }]);
    expect(
      openaiResponses.formatToolResults(
        [{ type: "tool_result", tool_use_id: "call_1", content: [{ type: "text", text: "a letter" }] }],
        calls,
      ),
    ).toEqual([{ type: "function_call_output", call_id: "call_1", output: "a letter" }]);
  });

  it("sends images as input_image parts, with the error prefix on the text", () => {
    const calls = [{ id: "call_1", name: "lookup", input: {} }];
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/jpeg" };
    expect(
      openaiResponses.formatToolResults(
        [
          {
            type: "tool_result",
            tool_use_id: "call_1",
            content: [image, { type: "text", text: "blurred" }],
            is_error: true,
          },
        ],
        calls,
      ),
    ).toEqual([
      {
        type: "function_call_output",
        call_id: "call_1",
        output: [
          { type: "input_text", text: "Error:" },
          { type: "input_image", image_url: "data:image/jpeg;base64,AAAA", detail: "auto" },
          { type: "input_text", text: "blurred" },
        ],
      },
    ]);
  });

  it("sends an embedded PDF as an input_file data URL named after its URI, an embedded image as input_image", () => {
    const [item] = openaiResponses.formatToolResults(
      [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            {
              type: "resource",
              resource: { uri: "file:///docs/r%20one.pdf", mimeType: "application/pdf", blob: "JVBERi0=" },
            },
            { type: "resource", resource: { uri: "file:///c.webp", mimeType: "image/webp", blob: "AAAA" } },
          ],
        },
      ],
      [{ id: "call_1", name: "fetch", input: {} }],
    ) as { output: unknown }[];
    expect(item?.output).toEqual([
      { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", filename: "r one.pdf" },
      { type: "input_image", image_url: "data:image/webp;base64,AAAA", detail: "auto" },
    ]);
  });

  it("keeps a result of text, text resources, audio and links a plain string", () => {
    const [item] = openaiResponses.formatToolResults(
      [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            { type: "resource", resource: { uri: "u", text: "body" } },
            { type: "resource_link", uri: "u2", name: "n" },
          ],
        },
      ],
      [{ id: "call_1", name: "fetch", input: {} }],
    ) as { output: unknown }[];
    expect(item?.output).toBe('body\n[resource link: u2 "n"]');
  });
});

describe("openaiResponses, provider-native tool search", () => {
  const searchItem = {
    type: "tool_search_call",
    id: "tsc_1",
    call_id: "call_s",
    execution: "client",
    status: "completed",
    arguments: '{"query":"look up a word"}',
  };

  it("marks deferred tools defer_loading: true, strict or not, each its own cached entry", () => {
    const [deferred] = openaiResponses.formatTools([lookup], { deferLoading: true });
    expect(deferred).toEqual({
      type: "function",
      name: "lookup",
      description: "Look a word up.",
      parameters: lookup.inputSchema,
      strict: false,
      defer_loading: true,
    });
    expect(openaiResponses.formatTools([lookup], { deferLoading: true })[0]).toBe(deferred);
    expect(openaiResponses.formatTools([lookup], { deferLoading: true, strict: true })[0]).toMatchObject({
      strict: true,
      defer_loading: true,
    });
    expect(openaiResponses.formatTools([lookup])[0]).not.toHaveProperty("defer_loading");
  });

  it("sends tool_search as the client-executed tool search tool with its description and schema", () => {
    const tool = formatResponsesToolSearch(TOOL_SEARCH_DEFINITION as ToolDescriptor);
    expect(tool).toEqual({
      type: "tool_search",
      execution: "client",
      description: TOOL_SEARCH_DEFINITION.description,
      parameters: TOOL_SEARCH_DEFINITION.inputSchema,
    });
    expect(formatResponsesToolSearch(TOOL_SEARCH_DEFINITION as ToolDescriptor)).toBe(tool);
  });

  it("reads a client tool_search_call as a call of tool_search, and leaves a server-executed one alone", () => {
    const output = [
      searchItem,
      { ...searchItem, call_id: "call_obj", arguments: { query: "as an object" } },
      { ...searchItem, call_id: null, execution: "server" },
    ];
    expect(openaiResponses.parseToolCalls({ output })).toEqual([
      { id: "call_s", name: "tool_search", input: { query: "look up a word" } },
      { id: "call_obj", name: "tool_search", input: { query: "as an object" } },
    ]);
  });

  it("answers a tool_search call with a tool_search_output item of the found tools' definitions", () => {
    const results: ToolResultBlock[] = [
      { type: "tool_result", tool_use_id: "call_s", content: [{ type: "text", text: "lookup: Look a word up." }] },
      { type: "tool_result", tool_use_id: "call_r", content: [{ type: "text", text: "lookup: a line" }] },
    ];
    const calls = [
      { id: "call_s", name: "tool_search", input: {} },
      { id: "call_r", name: "read", input: {} },
    ];
    const items = openaiResponses.formatToolResults(results, calls, { toolSearch: { deferredTools: [lookup] } });
    expect(items).toEqual([
      {
        type: "tool_search_output",
        call_id: "call_s",
        execution: "client",
        tools: openaiResponses.formatTools([lookup]),
      },
      { type: "function_call_output", call_id: "call_r", output: "lookup: a line" },
    ]);
    expect((items[0] as { tools: unknown[] }).tools[0]).toBe(openaiResponses.formatTools([lookup])[0]);
    const strict = openaiResponses.formatToolResults(results.slice(0, 1), calls.slice(0, 1), {
      toolSearch: { deferredTools: [lookup], strict: true },
    });
    expect(strict[0]).toMatchObject({ tools: openaiResponses.formatTools([lookup], { strict: true }) });
  });

  it("answers a search that found nothing, or failed, with an empty tool list", () => {
    const failed: ToolResultBlock = {
      type: "tool_result",
      tool_use_id: "call_s",
      content: [{ type: "text", text: "lookup: not a listing" }],
      is_error: true,
    };
    const items = openaiResponses.formatToolResults([failed], [{ id: "call_s", name: "tool_search", input: {} }], {
      toolSearch: { deferredTools: [lookup] },
    });
    expect(items).toEqual([{ type: "tool_search_output", call_id: "call_s", execution: "client", tools: [] }]);
  });
});
