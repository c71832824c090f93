// fromLangChainContent: every shape of LangChain content a tool may return, as toolwire blocks; nothing dropped.
import { describe, expect, it } from "vitest";
import { fromLangChainContent } from "./from-langchain-content.js";

describe("fromLangChainContent", () => {
  it("makes a string one text block", () => {
    expect(fromLangChainContent("hello")).toEqual([{ type: "text", text: "hello" }]);
  });

  it("reads text, standard base64 blocks, the older base64 shape and data URLs", () => {
    expect(
      fromLangChainContent([
        "plain",
        { type: "text", text: "block" },
        { type: "image", data: "aW1n", mimeType: "image/png" },
        { type: "image", source_type: "base64", data: "b2xk", mime_type: "image/jpeg" },
        { type: "image_url", image_url: { url: "data:image/gif;base64,Z2lm" } },
        { type: "audio", url: "data:audio/mpeg;base64,bXAz" },
        { type: "image", data: new Uint8Array([104, 105]), mimeType: "image/png" },
      ]),
    ).toEqual([
      { type: "text", text: "plain" },
      { type: "text", text: "block" },
      { type: "image", data: "aW1n", mimeType: "image/png" },
      { type: "image", data: "b2xk", mimeType: "image/jpeg" },
      { type: "image", data: "Z2lm", mimeType: "image/gif" },
      { type: "audio", data: "bXAz", mimeType: "audio/mpeg" },
      { type: "image", data: "aGk=", mimeType: "image/png" },
    ]);
  });

  it("makes an image by URL a resource link", () => {
    expect(
      fromLangChainContent([{ type: "image", url: "https://example.com/cat.png", mimeType: "image/png" }]),
    ).toEqual([{ type: "resource_link", uri: "https://example.com/cat.png", name: "cat.png", mimeType: "image/png" }]);
  });

  it("keeps what it cannot map as a text block of its JSON", () => {
    expect(fromLangChainContent([{ type: "reasoning", reasoning: "hmm" }])).toEqual([
      { type: "text", text: '{"type":"reasoning","reasoning":"hmm"}' },
    ]);
    expect(fromLangChainContent({ answer: 42 })).toEqual([{ type: "text", text: '{"answer":42}' }]);
    expect(fromLangChainContent(7)).toEqual([{ type: "text", text: "7" }]);
  });
});
