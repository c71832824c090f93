// Gemini: made-up ids, ids echoed only when the model gave them, { output } / { error }, calls without args.
import { describe, expect, it } from "vitest";
import { defineTool } from "../core/register/define-tool.js";
import { ProviderFormatError } from "./errors.js";
import { GEMINI_MADE_UP_ID_PREFIX, gemini } from "./gemini.js";

function responseWithParts(parts: unknown[]) {
  return { candidates: [{ content: { role: "model", parts } }] };
}

describe("gemini", () => {
  it("makes up ids for calls without one, unique within the response", () => {
    const calls = gemini.parseToolCalls(
      responseWithParts([
        { functionCall: { name: "a", args: { x: 1 } } },
        { text: "and" },
        { functionCall: { name: "a", args: { x: 2 } } },
        { functionCall: { name: "b" } },
      ]),
    );
    expect(calls.map((call) => call.id.startsWith(GEMINI_MADE_UP_ID_PREFIX))).toEqual([true, true, true]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(calls.map(({ name, input }) => ({ name, input }))).toEqual([
      { name: "a", input: { x: 1 } },
      { name: "a", input: { x: 2 } },
      { name: "b", input: {} },
    ]);
  });

  it("never makes up an id that equals one the model gave in the same response", () => {
    const probe = gemini.parseToolCalls(responseWithParts([{ functionCall: { name: "a" } }]));
    const batch = probe[0]?.id.slice(0, -2) ?? "";
    expect(batch.startsWith(GEMINI_MADE_UP_ID_PREFIX)).toBe(true);
    const many = gemini.parseToolCalls(
      responseWithParts(
        Array.from({ length: 50 }, (_, index) => ({
          functionCall: { name: "a", id: index % 2 ? `x${index}` : undefined },
        })),
      ),
    );
    expect(new Set(many.map((call) => call.id)).size).toBe(50);
  });

  it("echoes functionResponse.id only for ids the model gave", () => {
    const calls = gemini.parseToolCalls(
      responseWithParts([
        { functionCall: { id: "given-1", name: "a", args: {} } },
        { functionCall: { name: "b", args: {} } },
      ]),
    );
    const message = gemini.formatToolResults(
      [
        { type: "tool_result", tool_use_id: "given-1", content: [{ type: "text", text: "one" }] },
        {
          type: "tool_result",
          tool_use_id: calls[1]?.id ?? "",
          content: [{ type: "text", text: "two" }],
          is_error: true,
        },
      ],
      calls,
    );
    expect(message).toEqual({
      role: "user",
      parts: [
        { functionResponse: { id: "given-1", name: "a", response: { output: "one" } } },
        { functionResponse: { name: "b", response: { error: "two" } } },
      ],
    });
  });

  it("needs the calls to name its responses", () => {
    const results = [{ type: "tool_result" as const, tool_use_id: "x", content: [] }];
    expect(() => gemini.formatToolResults(results, [])).toThrow(ProviderFormatError);
  });

  it("leaves parameters out for a tool without properties", () => {
    const tools = gemini.formatTools([
      {
        name: "now",
        description: "The time.",
        inputSchema: { type: "object", properties: {} },
        owner: { kind: "core" },
      },
    ]);
    expect(tools).toEqual([{ functionDeclarations: [{ name: "now", description: "The time." }] }]);
  });

  it("puts images and PDFs in functionResponse.parts as inline data, named in the output", () => {
    const formatted = gemini.formatToolResults(
      [
        {
          type: "tool_result",
          tool_use_id: "c1",
          content: [
            { type: "text", text: "two files:" },
            { type: "image", data: "AAAA", mimeType: "image/jpeg" },
            { type: "resource", resource: { uri: "file:///r.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
            { type: "image", data: "AAAA", mimeType: "image/svg+xml" },
          ],
        },
      ],
      [{ id: "c1", name: "fetch", input: {} }],
    );
    expect(formatted.parts[0]?.functionResponse).toEqual({
      id: "c1",
      name: "fetch",
      response: {
        output:
          "two files:\n[image/jpeg: attached as image-1]\n[resource file:///r.pdf (application/pdf): attached as document-2]\n" +
          "[image: image/svg+xml, about 3 bytes; this provider cannot show tool images to the model]",
      },
      parts: [
        { inlineData: { mimeType: "image/jpeg", data: "AAAA", displayName: "image-1" } },
        { inlineData: { mimeType: "application/pdf", data: "JVBERi0=", displayName: "document-2" } },
      ],
    });
  });

  it("gives fresh declarations each call, so one rewritten in place (as @google/genai does) changes no later turn", () => {
    const read = defineTool({
      name: "read",
      description: "Read a file.",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      execute: () => "",
    });
    const [first] = gemini.formatTools([read]);
    const before = JSON.stringify(first);
    const declaration = first?.functionDeclarations[0];
    if (declaration === undefined) throw new Error("no declaration");
    declaration.parameters = { type: "OBJECT" };
    expect(JSON.stringify(gemini.formatTools([read])[0])).toBe(before);
  });
});
