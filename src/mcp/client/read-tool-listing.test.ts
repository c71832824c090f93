import type { Tool as McpTool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../core/register/define-tool.js";
import type { AgentTool } from "../../core/types.js";
import { readToolListing } from "./read-tool-listing.js";

const listed = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `Tool ${name}`,
  inputSchema: { type: "object", properties: {} },
  ...extra,
});

function bridgeCounting() {
  const made: string[] = [];
  const bridge = (name: string, tool: McpTool): AgentTool => {
    made.push(name);
    return defineTool({ name, description: tool.description ?? "", inputSchema: tool.inputSchema, execute: () => "" });
  };
  return { made, bridge };
}

describe("readToolListing", () => {
  it("bridges what it can read, in order, and skips the rest with the reason", () => {
    const { bridge } = bridgeCounting();
    const read = readToolListing(
      "srv",
      [
        listed("a"),
        "nonsense",
        { inputSchema: {} },
        listed("b", { inputSchema: "oops" }),
        listed("c", { inputSchema: { type: "string" } }),
      ],
      () => true,
      new Map(),
      bridge,
    );
    expect(read.tools.map((tool) => tool.descriptor.name)).toEqual(["srv__a"]);
    expect(read.skipped.map((entry) => entry.toolName)).toEqual(["(unnamed)", "(unnamed)", "b", "c"]);
    expect(read.skipped[0]?.reason).toBe("the listing entry is not an object");
    expect(read.skipped[2]?.reason).toBe("its inputSchema is not a JSON Schema object");
    expect(read.skipped[3]?.reason).toMatch(/inputSchema/); // refused by defineTool
  });

  it("reuses the bridged tool for an unchanged definition, and makes a new one when it changed", () => {
    const { made, bridge } = bridgeCounting();
    const first = readToolListing("srv", [listed("a"), listed("b")], () => true, new Map(), bridge);
    const second = readToolListing(
      "srv",
      [listed("a"), listed("b", { description: "changed" })],
      () => true,
      first.cache,
      bridge,
    );
    expect(second.tools[0]).toBe(first.tools[0]);
    expect(second.tools[1]).not.toBe(first.tools[1]);
    expect(made).toEqual(["srv__a", "srv__b", "srv__b"]);
  });

  it("leaves out what the filter does not keep, before naming", () => {
    const { bridge } = bridgeCounting();
    const read = readToolListing("srv", [listed("Echo"), listed("echo")], (name) => name === "echo", new Map(), bridge);
    expect(read.tools.map((tool) => tool.descriptor.name)).toEqual(["srv__echo"]);
  });
});
