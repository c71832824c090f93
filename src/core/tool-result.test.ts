import { describe, expect, it } from "vitest";
import { contentBlockAsText, describeContentProblem, isBase64, normalizeToolResult } from "./tool-result.js";

const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

describe("normalizeToolResult content blocks (docs/core.md)", () => {
  it("accepts every block type, with annotations and _meta, unchanged", () => {
    const content = [
      { type: "text", text: "t", annotations: { audience: ["user", "assistant"], priority: 0.2 }, _meta: { a: 1 } },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: WAV, mimeType: "audio/wav", annotations: { lastModified: "2025-05-01T10:00:00.5+02:00" } },
      { type: "resource", resource: { uri: "test://a", mimeType: "text/plain", text: "body" } },
      { type: "resource", resource: { uri: "test://b", blob: "AAEC", _meta: { k: "v" } }, _meta: { x: true } },
      { type: "resource_link", uri: "test://c", name: "c", title: "C", size: 3, icons: [{ src: "data:," }] },
    ];
    expect(normalizeToolResult({ content })).toEqual({ content });
  });

  it.each([
    [{ type: "audio", data: WAV }, "an audio block needs string `data` (base64) and `mimeType`"],
    [
      { type: "audio", data: `data:audio/wav;base64,${WAV}`, mimeType: "audio/wav" },
      "an audio block's `data` is not base64",
    ],
    [{ type: "image", data: "aGk", mimeType: "image/png", _meta: [] }, "an image block's `_meta` is not an object"],
    [{ type: "image", data: "a", mimeType: "image/png" }, "an image block's `data` is not base64"],
    [{ type: "resource" }, "a resource block needs a `resource` object"],
    [{ type: "resource", resource: { text: "x" } }, "an embedded resource has no string `uri`"],
    [{ type: "resource", resource: { uri: "u" } }, "needs exactly one of `text` and `blob` (it has neither)"],
    [{ type: "resource", resource: { uri: "u", text: "x", blob: "AAAA" } }, "(it has both)"],
    [{ type: "resource", resource: { uri: "u", text: 5 } }, "an embedded resource's `text` is not a string"],
    [
      { type: "resource", resource: { uri: "u", blob: "AA A" } },
      "an embedded resource's `blob` is not a base64 string",
    ],
    [{ type: "resource", resource: { uri: "u", text: "x", mimeType: 1 } }, "`mimeType` is not a string"],
    [{ type: "resource_link", uri: "u" }, "a resource_link block needs string `uri` and `name`"],
    [{ type: "resource_link", uri: "u", name: "n", size: -1 }, "`size` is not a whole number of bytes"],
    [{ type: "resource_link", uri: "u", name: "n", description: 1 }, "a resource_link's `description` is not a string"],
    [{ type: "resource_link", uri: "u", name: "n", icons: [{}] }, "`icons[0]` has no string `src`"],
    [{ type: "text", text: "t", annotations: { priority: 2 } }, "`annotations.priority` is not a number from 0 to 1"],
    [
      { type: "text", text: "t", annotations: { audience: ["model"] } },
      '`annotations.audience` is not a list of "user"',
    ],
    [
      { type: "text", text: "t", annotations: { lastModified: "yesterday" } },
      "`annotations.lastModified` is not an ISO",
    ],
    [{ type: "text", text: "t", annotations: "high" }, "a text block's `annotations` is not an object"],
    [{ type: "video" }, 'unknown content block type "video" (expected "text", "image", "audio", "resource" or'],
  ])("refuses %j with a precise problem", (block, problem) => {
    const result = normalizeToolResult({ content: [{ type: "text", text: "ok" }, block] });
    expect(typeof result).toBe("string");
    expect(result).toContain("content[1]: ");
    expect(result).toContain(problem);
  });

  it("keeps fields MCP may add later on a block", () => {
    const block = { type: "resource_link", uri: "u", name: "n", future: { x: 1 } };
    expect(describeContentProblem(block)).toBeUndefined();
  });
});

describe("isBase64", () => {
  it.each(["", "AA==", "AAA=", "AAAA", "AA", "AAA", "+/+/", WAV])("accepts %j", (text) => {
    expect(isBase64(text)).toBe(true);
  });
  it.each(["A", "A=", "AA=", "AAAAA", "AA===", "AA AA", "AA\nAA", "-_-_", "data:,", "=AAA"])("refuses %j", (text) => {
    expect(isBase64(text)).toBe(false);
  });
});

describe("contentBlockAsText", () => {
  it("shows text and a text resource as they are, other blocks as a line", () => {
    expect(contentBlockAsText({ type: "resource", resource: { uri: "u", text: "body" } })).toBe("body");
    expect(contentBlockAsText({ type: "audio", data: WAV, mimeType: "audio/wav" })).toBe("[audio audio/wav, 44 bytes]");
    expect(
      contentBlockAsText({ type: "resource", resource: { uri: "u", mimeType: "application/zip", blob: "AAAA" } }),
    ).toBe("[resource u application/zip, 3 bytes]");
    expect(contentBlockAsText({ type: "resource_link", uri: "u", name: "n", description: "d" })).toBe(
      '[resource link: u "n": d]',
    );
  });
});
