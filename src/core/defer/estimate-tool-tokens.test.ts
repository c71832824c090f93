import { describe, expect, it } from "vitest";
import { defineTool } from "../register/define-tool.js";
import { estimateToolTokens } from "./estimate-tool-tokens.js";

describe("estimateToolTokens", () => {
  it("is the canonical JSON of { name, description, inputSchema } in characters, divided by 4, rounded up", () => {
    const descriptor = {
      name: "ab",
      description: "c",
      inputSchema: { type: "object", properties: {} },
      owner: { kind: "core" } as const,
    };
    // {"description":"c","inputSchema":{"properties":{},"type":"object"},"name":"ab"} is 79 characters
    const json = '{"description":"c","inputSchema":{"properties":{},"type":"object"},"name":"ab"}';
    expect(json).toHaveLength(79);
    expect(estimateToolTokens(descriptor)).toBe(20);
  });

  it("ignores everything a model is not sent, and key order", () => {
    const plain = { name: "t", description: "d", inputSchema: { type: "object", required: [] } };
    const dressed = {
      inputSchema: { required: [], type: "object" },
      description: "d",
      name: "t",
      title: "A long title that no provider's tool format carries",
      owner: { kind: "mcp", serverId: "x" } as const,
      annotations: { readOnlyHint: true },
    };
    expect(estimateToolTokens(dressed)).toBe(estimateToolTokens(plain));
  });

  it("takes a tool or its descriptor alike", () => {
    const tool = defineTool({
      name: "echo",
      description: "Echoes",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
      execute: () => "",
    });
    expect(estimateToolTokens(tool)).toBe(estimateToolTokens(tool.descriptor));
    expect(estimateToolTokens(tool)).toBeGreaterThan(0);
  });
});
