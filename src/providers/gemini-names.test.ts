// Tool names for Gemini: every toolwire name goes by one Gemini accepts, one-to-one, and comes back unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geminiDeclarationViolations } from "../../test/support/provider-request-rules.js";
import { TOOL_NAME_PATTERN } from "../core/filter/descriptor.js";
import { toGeminiContents } from "./clients/gemini-model.js";
import { fromGeminiName, toGeminiName } from "./gemini-names.js";

const toolName = fc.stringMatching(TOOL_NAME_PATTERN);

describe("toGeminiName", () => {
  it("gives every tool name a name Gemini accepts, which fromGeminiName maps back", () => {
    fc.assert(
      fc.property(toolName, (name) => {
        const mapped = toGeminiName(name);
        expect(geminiDeclarationViolations({ name: mapped })).toEqual([]);
        expect(fromGeminiName(mapped)).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it("never gives two tool names the same name", () => {
    fc.assert(
      fc.property(toolName, toolName, (a, b) => {
        if (a !== b) expect(toGeminiName(a)).not.toBe(toGeminiName(b));
      }),
      { numRuns: 500 },
    );
  });

  it("leaves a name starting with a letter as it is, and a name it never made as it comes", () => {
    expect(toGeminiName("read_file")).toBe("read_file");
    expect(toGeminiName("1st")).toBe("_1st");
    expect(toGeminiName("_x")).toBe("__x");
    expect(fromGeminiName("_read_file")).toBe("_read_file"); // not the image of any name: "read_file" goes as it is
    expect(fromGeminiName("made.up")).toBe("made.up");
  });

  it("the Gemini client echoes a call of a renamed tool by its Gemini name", () => {
    const contents = toGeminiContents([
      { role: "user", text: "go" },
      { role: "assistant", text: "", toolCalls: [{ id: "c1", name: "1st", input: {} }] },
      {
        role: "tool",
        results: [{ type: "tool_result", tool_use_id: "c1", content: [{ type: "text", text: "done" }] }],
      },
    ]) as { parts: { functionCall?: { name: string }; functionResponse?: { name: string } }[] }[];
    expect(contents[1]?.parts[0]?.functionCall?.name).toBe("_1st");
    expect(contents[2]?.parts[0]?.functionResponse?.name).toBe("_1st");
  });
});
