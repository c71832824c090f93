// Anthropic: tool_result blocks with is_error, base64 image blocks, and content left out when empty.
import { describe, expect, it } from "vitest";
import type { ToolDescriptor, ToolResultBlock } from "../core/types.js";
import { anthropic } from "./anthropic.js";

describe("anthropic", () => {
  it("sends image content as base64 image blocks and flags errors with is_error", () => {
    const calls = [
      { id: "toolu_1", name: "shot", input: {} },
      { id: "toolu_2", name: "shot", input: {} },
    ];
    expect(
      anthropic.formatToolResults(
        [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [
              { type: "text", text: "here" },
              { type: "image", data: "AAAA", mimeType: "image/png" },
            ],
          },
          { type: "tool_result", tool_use_id: "toolu_2", content: [], is_error: true },
        ],
        calls,
      ),
    ).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "text", text: "here" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          ],
        },
        // Anthropic refuses an error tool_result without content.
        {
          type: "tool_result",
          tool_use_id: "toolu_2",
          content: [{ type: "text", text: "The tool failed without saying why." }],
          is_error: true,
        },
      ],
    });
  });

  it("ignores blocks it does not know (thinking, server tools) and unknown fields on tool_use", () => {
    const calls = anthropic.parseToolCalls({
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
        {
          type: "tool_use",
          id: "toolu_1",
          name: "read",
          input: { path: "a" },
          toolset_name: null,
          cache_control: null,
        },
      ],
    });
    expect(calls).toEqual([{ id: "toolu_1", name: "read", input: { path: "a" } }]);
  });

  it("sends an embedded PDF as a base64 document titled with its URI, an embedded PNG as an image", () => {
    const formatted = anthropic.formatToolResults(
      [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "resource", resource: { uri: "file:///r.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
            { type: "resource", resource: { uri: "file:///c.png", mimeType: "image/png", blob: "AAAA" } },
          ],
        },
      ],
      [{ id: "toolu_1", name: "fetch", input: {} }],
    );
    expect(formatted.content[0]?.content).toEqual([
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" },
        title: "file:///r.pdf",
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    ]);
  });

  it("describes an image of a type Anthropic does not read in text, instead of a block the API would refuse", () => {
    const formatted = anthropic.formatToolResults(
      [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "image", data: "AAAA", mimeType: "image/svg+xml" },
            { type: "resource", resource: { uri: "file:///c.bmp", mimeType: "image/bmp", blob: "AAAA" } },
          ],
        },
      ],
      [{ id: "toolu_1", name: "shot", input: {} }],
    );
    expect(formatted.content[0]?.content).toEqual([
      {
        type: "text",
        text: "[image: image/svg+xml, about 3 bytes; this provider cannot show tool images to the model]",
      },
      {
        type: "text",
        text: "[resource file:///c.bmp (image/bmp), about 3 bytes of binary data; this provider cannot show it to the model]",
      },
    ]);
  });
});

describe("anthropic, provider-native tool search", () => {
  const weather = Object.freeze<ToolDescriptor>({
    name: "get_weather",
    description: "Current weather for a city.\nMore text.",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
    owner: { kind: "core" },
  });
  const stocks = Object.freeze<ToolDescriptor>({
    name: "stocks",
    description: "Stock quotes.",
    inputSchema: { type: "object" },
    owner: { kind: "core" },
  });
  const searchCall = { id: "toolu_s", name: "tool_search", input: { query: "weather" } };
  const listed = (text: string, isError = false): ToolResultBlock => ({
    type: "tool_result",
    tool_use_id: "toolu_s",
    content: [{ type: "text", text }],
    ...(isError ? { is_error: true } : {}),
  });

  it("gives each tool its own entry when the list changes from one call to the next", () => {
    const names = (list: readonly ToolDescriptor[]) => anthropic.formatTools(list).map((entry) => entry.name);
    expect(names([weather, stocks])).toEqual(["get_weather", "stocks"]);
    expect(names([stocks, weather])).toEqual(["stocks", "get_weather"]);
    expect(names([stocks])).toEqual(["stocks"]);
    expect(names([stocks, weather])).toEqual(["stocks", "get_weather"]);
    const first = anthropic.formatTools([weather, stocks]);
    first.pop(); // the caller's array to change, not the cache's
    expect(names([weather, stocks])).toEqual(["get_weather", "stocks"]);
  });

  it("marks deferred tools defer_loading: true, the same object every time, apart from the plain entry", () => {
    const [deferred] = anthropic.formatTools([weather], { deferLoading: true });
    expect(deferred).toEqual({
      name: "get_weather",
      description: weather.description,
      input_schema: weather.inputSchema,
      defer_loading: true,
    });
    expect(anthropic.formatTools([weather], { deferLoading: true })[0]).toBe(deferred);
    expect(anthropic.formatTools([weather])[0]).not.toHaveProperty("defer_loading");
  });

  it("answers a tool_search call with one tool_reference block per deferred tool it listed", () => {
    const message = anthropic.formatToolResults(
      [listed("stocks: Stock quotes.\nget_weather: Current weather for a city.\nnot_deferred: Something.")],
      [searchCall],
      { toolSearch: { deferredTools: [weather, stocks] } },
    );
    expect(message.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_s",
        content: [
          { type: "tool_reference", tool_name: "stocks" },
          { type: "tool_reference", tool_name: "get_weather" },
        ],
      },
    ]);
  });

  it("keeps the text of a search that found nothing, of an error, of other tools, and without toolSearch", () => {
    const options = { toolSearch: { deferredTools: [weather] } };
    const none = listed('No deferred tool matched "x" (1 tools are deferred).');
    expect(anthropic.formatToolResults([none], [searchCall], options).content[0]?.content).toEqual(none.content);
    const failed = listed("get_weather: looks like a line", true);
    expect(anthropic.formatToolResults([failed], [searchCall], options).content[0]).toMatchObject({ is_error: true });
    const other = { ...listed("get_weather: x"), tool_use_id: "toolu_r" };
    const otherCall = { id: "toolu_r", name: "read", input: {} };
    expect(anthropic.formatToolResults([other], [otherCall], options).content[0]?.content).toEqual(other.content);
    const plain = anthropic.formatToolResults([listed("get_weather: x")], [searchCall]);
    expect(plain.content[0]?.content).toEqual([{ type: "text", text: "get_weather: x" }]);
  });
});
