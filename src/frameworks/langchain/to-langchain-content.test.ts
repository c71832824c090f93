// toLangChainContent: a string when the content is all text, LangChain standard blocks otherwise.
import { describe, expect, it } from "vitest";
import { toLangChainContent } from "./to-langchain-content.js";

describe("toLangChainContent", () => {
  it("joins text, a text resource and a resource link into one string", () => {
    expect(
      toLangChainContent([
        { type: "text", text: "first" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "file text" } },
        { type: "resource_link", uri: "file:///b.csv", name: "b.csv", mimeType: "text/csv" },
      ]),
    ).toBe('first\nfile text\n[resource link: file:///b.csv "b.csv" (text/csv)]');
  });

  it("gives an empty string for no content", () => {
    expect(toLangChainContent([])).toBe("");
  });

  it("gives standard blocks when an image, audio or binary resource is there", () => {
    expect(
      toLangChainContent([
        { type: "text", text: "look" },
        { type: "image", data: "aW1n", mimeType: "image/png" },
        { type: "audio", data: "c25k", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///r.pdf", mimeType: "application/pdf", blob: "cGRm" } },
      ]),
    ).toEqual([
      { type: "text", text: "look" },
      { type: "image", data: "aW1n", mimeType: "image/png" },
      { type: "audio", data: "c25k", mimeType: "audio/wav" },
      { type: "file", data: "cGRm", mimeType: "application/pdf", metadata: { uri: "file:///r.pdf" } },
    ]);
  });
});
