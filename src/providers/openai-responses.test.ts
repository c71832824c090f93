// OpenAI Responses: the strict flag on every tool, call_id pairing, and image output parts.
import { describe, expect, it } from "vitest";
import type { ToolDescriptor } from "../core/types.js";
import { openaiResponses } from "./openai-responses.js";

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
