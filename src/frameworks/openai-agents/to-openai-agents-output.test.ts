import { describe, expect, it } from "vitest";
import { fromOpenAIAgentsOutput, OPENAI_AGENTS_DEFAULT_ERROR_TEXT } from "./from-openai-agents-output.js";
import { toOpenAIAgentsOutput } from "./to-openai-agents-output.js";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("toOpenAIAgentsOutput", () => {
  it("answers one string when every block reads as text", () => {
    expect(
      toOpenAIAgentsOutput([
        { type: "text", text: "a" },
        { type: "resource", resource: { uri: "file:///b.txt", text: "b" } },
      ]),
    ).toBe("a\nb");
  });

  it("answers structured parts: images, an embedded PDF as a file, other blocks described as text", () => {
    expect(
      toOpenAIAgentsOutput([
        { type: "text", text: "see" },
        { type: "image", data: PIXEL, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "file:///docs/report.pdf", mimeType: "application/pdf", blob: "JVBERi0=" },
        },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ]),
    ).toEqual([
      { type: "text", text: "see" },
      { type: "image", image: { data: PIXEL, mediaType: "image/png" } },
      { type: "file", file: { data: "JVBERi0=", mediaType: "application/pdf", filename: "report.pdf" } },
      { type: "text", text: expect.stringContaining("[audio: audio/wav") },
    ]);
  });
});

describe("fromOpenAIAgentsOutput", () => {
  it("reads a string as text, and the SDK's default failure text as an error", () => {
    expect(fromOpenAIAgentsOutput("ok")).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(fromOpenAIAgentsOutput(OPENAI_AGENTS_DEFAULT_ERROR_TEXT)).toEqual({
      content: [{ type: "text", text: OPENAI_AGENTS_DEFAULT_ERROR_TEXT }],
      isError: true,
    });
  });

  it("reads a list that is not all structured output as its JSON text", () => {
    const output = [{ type: "text", text: "a" }, { other: 1 }];
    expect(fromOpenAIAgentsOutput(output)).toEqual({
      content: [{ type: "text", text: JSON.stringify(output) }],
      details: output,
    });
  });

  it("reads an inline image as bytes, and a data URL file as an embedded resource", () => {
    const bytes = Buffer.from(PIXEL, "base64");
    expect(
      fromOpenAIAgentsOutput([
        { type: "image", image: { data: new Uint8Array(bytes), mediaType: "image/png" } },
        { type: "file", file: "data:text/csv;base64,YSxi" },
        { type: "image", image: { fileId: "file_9" } },
      ]).content,
    ).toEqual([
      { type: "image", data: PIXEL, mimeType: "image/png" },
      { type: "resource", resource: { uri: "file", mimeType: "text/csv", blob: "YSxi" } },
      { type: "text", text: "[provider file file_9; not shown here]" },
    ]);
  });
});
