// Anthropic: tool_result blocks with is_error, base64 image blocks, and content left out when empty.
import { describe, expect, it } from "vitest";
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
        { type: "tool_result", tool_use_id: "toolu_2", is_error: true },
      ],
    });
  });

  it("ignores blocks it does not know (thinking, server tools) and unknown fields on tool_use", () => {
    const calls = anthropic.parseToolCalls({
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" }, caller: { type: "direct" } },
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
