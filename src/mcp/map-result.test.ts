import { describe, expect, it } from "vitest";
import { mapCallToolResult } from "./map-result.js";

const where = { serverId: "srv", toolName: "tool" };

describe("mapCallToolResult", () => {
  it("keeps text and image blocks as they are", () => {
    const result = mapCallToolResult(
      {
        content: [
          { type: "text", text: "hi", annotations: { audience: ["user"] } },
          { type: "image", data: "aGk=", mimeType: "image/png" },
        ],
      },
      where,
    );
    expect(result).toEqual({
      content: [
        { type: "text", text: "hi" },
        { type: "image", data: "aGk=", mimeType: "image/png" },
      ],
    });
  });

  it("describes audio, embedded resources and links in text and keeps them in details.otherContent", () => {
    const audio = { type: "audio", data: "AAAA", mimeType: "audio/wav" };
    const textResource = { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "body" } };
    const blobResource = { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAAAA==" } };
    const link = { type: "resource_link", uri: "file:///c", name: "c", description: "the c file", mimeType: "text/x" };
    const result = mapCallToolResult({ content: [audio, textResource, blobResource, link] }, where);
    expect(result.content).toEqual([
      { type: "text", text: "[audio: audio/wav, 3 bytes, not shown]" },
      { type: "text", text: "[resource file:///a.txt (text/plain)]\nbody" },
      { type: "text", text: "[resource file:///b.bin: 4 bytes of binary data, not shown]" },
      { type: "text", text: '[resource link: file:///c "c" (text/x): the c file]' },
    ]);
    expect(result.details).toEqual({ otherContent: [audio, textResource, blobResource, link] });
  });

  it("describes an unknown block type instead of dropping it", () => {
    const result = mapCallToolResult({ content: [{ type: "video", url: "x" }] }, where);
    expect(result.content[0]).toEqual({
      type: "text",
      text: '[unsupported "video" content block: {"type":"video","url":"x"}]',
    });
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
