import { describe, expect, it } from "vitest";
import { toMcpContent } from "../server/to-mcp-content.js";
import { mapCallToolResult } from "./map-result.js";

const where = { serverId: "srv", toolName: "tool" };

describe("mapCallToolResult", () => {
  it("keeps every MCP block type one to one, annotations and _meta included", () => {
    const blocks = [
      { type: "text", text: "hi", annotations: { audience: ["user"], priority: 0.5 }, _meta: { trace: "t1" } },
      { type: "image", data: "aGk=", mimeType: "image/png", annotations: { lastModified: "2025-01-12T15:00:58Z" } },
      { type: "audio", data: "AAAA", mimeType: "audio/wav", _meta: { seconds: 0 } },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "body", _meta: { v: 1 } } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAAAA==" }, annotations: { priority: 1 } },
      {
        type: "resource_link",
        uri: "file:///c",
        name: "c",
        title: "The C file",
        description: "the c file",
        mimeType: "text/x",
        size: 12,
        icons: [{ src: "https://example.com/c.png", mimeType: "image/png", sizes: ["48x48"] }],
        annotations: { audience: ["assistant"] },
      },
    ];
    const sent = JSON.stringify(blocks);
    const result = mapCallToolResult({ content: blocks }, where);
    expect(result).toEqual({ content: blocks });
    expect(JSON.stringify(result.content)).toBe(sent);
  });

  it("sends the mapped blocks back to MCP unchanged", () => {
    const blocks = [
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///c", name: "c", annotations: { priority: 0 } },
    ];
    const content = mapCallToolResult({ content: blocks }, where).content;
    expect(toMcpContent(content)).toEqual(blocks);
  });

  it("describes an unknown block type instead of dropping it, and keeps it in details.otherContent", () => {
    const video = { type: "video", url: "x" };
    const result = mapCallToolResult({ content: [{ type: "text", text: "see:" }, video] }, where);
    expect(result.content[1]).toEqual({
      type: "text",
      text: '[unsupported "video" content block: {"type":"video","url":"x"}]',
    });
    expect(result.details).toEqual({ otherContent: [video] });
  });

  it("describes a malformed block of a known type with what is wrong", () => {
    const both = { type: "resource", resource: { uri: "u", text: "a", blob: "AAAA" } };
    const result = mapCallToolResult(
      { content: [both, { type: "audio", data: "not base64!", mimeType: "audio/wav" }] },
      where,
    );
    expect(result.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("an embedded resource needs exactly one of `text` and `blob` (it has both)"),
    });
    expect(result.content[1]).toMatchObject({ text: expect.stringContaining("an audio block's `data` is not base64") });
    expect(result.details).toEqual({ otherContent: [both, expect.objectContaining({ type: "audio" })] });
  });

  it("describes a block that is not an object", () => {
    expect(mapCallToolResult({ content: [42] }, where).content).toEqual([
      { type: "text", text: "[malformed content block: 42]" },
    ]);
  });

  it("puts structuredContent in details, and in a text block when there is no content", () => {
    const withText = mapCallToolResult(
      { content: [{ type: "text", text: "22C" }], structuredContent: { t: 22 } },
      where,
    );
    expect(withText).toEqual({ content: [{ type: "text", text: "22C" }], details: { structuredContent: { t: 22 } } });
    const alone = mapCallToolResult({ content: [], structuredContent: { t: 22 } }, where);
    expect(alone.content).toEqual([{ type: "text", text: '{"t":22}' }]);
  });

  it("makes an MCP isError result an error result, with a text when the server said nothing", () => {
    expect(mapCallToolResult({ content: [{ type: "text", text: "boom" }], isError: true }, where)).toEqual({
      content: [{ type: "text", text: "boom" }],
      isError: true,
    });
    expect(mapCallToolResult({ content: [], isError: true }, where).content[0]).toEqual({
      type: "text",
      text: "MCP server srv reported an error for tool tool without saying more",
    });
  });

  it("never sets isError for a non-boolean isError", () => {
    expect(mapCallToolResult({ content: [], isError: "yes" }, where).isError).toBeUndefined();
  });
});
