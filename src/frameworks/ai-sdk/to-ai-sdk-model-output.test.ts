import { describe, expect, it } from "vitest";
import { fromAiSdkModelOutput } from "./from-ai-sdk-model-output.js";
import { toAiSdkModelOutput } from "./to-ai-sdk-model-output.js";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("toAiSdkModelOutput", () => {
  it("joins text blocks and text resources into one text output", () => {
    expect(
      toAiSdkModelOutput([
        { type: "text", text: "a" },
        { type: "resource", resource: { uri: "file:///b.txt", text: "b" } },
      ]),
    ).toEqual({ type: "text", value: "a\nb" });
  });

  it("shows images and image blobs as image-data, and describes audio and links in text parts", () => {
    const output = toAiSdkModelOutput([
      { type: "image", data: PIXEL, mimeType: "image/png" },
      { type: "resource", resource: { uri: "file:///c.png", mimeType: "image/png", blob: PIXEL } },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///d.txt", name: "d.txt" },
    ]);
    expect(output.type).toBe("content");
    const parts = output.type === "content" ? output.value : [];
    expect(parts.slice(0, 2)).toEqual([
      { type: "image-data", data: PIXEL, mediaType: "image/png" },
      { type: "image-data", data: PIXEL, mediaType: "image/png" },
    ]);
    expect(parts[2]).toEqual({ type: "text", text: expect.stringContaining("[audio: audio/wav") });
    expect(parts[3]).toEqual({ type: "text", text: expect.stringContaining("file:///d.txt") });
  });

  it("writes images as the AI SDK 7's file parts when asked", () => {
    const output = toAiSdkModelOutput(
      [
        { type: "text", text: "the screen:" },
        { type: "image", data: PIXEL, mimeType: "image/png" },
      ],
      { images: "file" },
    );
    expect(output).toEqual({
      type: "content",
      value: [
        { type: "text", text: "the screen:" },
        { type: "file", mediaType: "image/png", data: { type: "data", data: PIXEL } },
      ],
    });
  });
});

describe("fromAiSdkModelOutput", () => {
  it("reads json as its text and marks the error and denied outputs as errors", () => {
    expect(fromAiSdkModelOutput({ type: "json", value: { ok: true } })).toEqual({
      content: [{ type: "text", text: '{"ok":true}' }],
    });
    expect(fromAiSdkModelOutput({ type: "error-json", value: { code: 7 } }, "raw")).toEqual({
      content: [{ type: "text", text: '{"code":7}' }],
      details: "raw",
      isError: true,
    });
    expect(fromAiSdkModelOutput({ type: "execution-denied", reason: "not now" })).toEqual({
      content: [{ type: "text", text: "Tool execution denied: not now" }],
      isError: true,
    });
  });

  it("maps file data by media type and names provider file ids in a line", () => {
    const result = fromAiSdkModelOutput({
      type: "content",
      value: [
        { type: "file-data", data: "AAAA", mediaType: "audio/wav" },
        { type: "file-data", data: "JVBERi0=", mediaType: "application/pdf", filename: "r.pdf" },
        { type: "image-url", url: "https://example.test/i.png?x=1" },
        { type: "file-id", fileId: "file_1" },
      ],
    });
    expect(result.content).toEqual([
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "r.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
      { type: "resource_link", uri: "https://example.test/i.png?x=1", name: "i.png" },
      { type: "text", text: '[provider file "file_1"; not shown here]' },
    ]);
  });
});
