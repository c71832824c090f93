// applyToolPolicy: patterns, deny-wins layers that only narrow, and the report of every removal.
import { describe, expect, it } from "vitest";
import type { ToolDescriptor, ToolOwnerRef } from "../types.js";
import { applyToolPolicy } from "./policy.js";

function tool(name: string, owner: ToolOwnerRef = { kind: "core" }): ToolDescriptor {
  return { name, description: `${name} tool`, inputSchema: { type: "object" }, owner };
}

describe("applyToolPolicy: names that are Object.prototype keys", () => {
  it.each(["constructor", "__proto__", "CONSTRUCTOR "])("treats %j as a tool name, not a group", (pattern) => {
    const tools = [tool("read"), tool("constructor"), tool("__proto__")];
    const result = applyToolPolicy(tools, [{ label: "only", allow: [pattern] }]);
    const expected = pattern.trim().toLowerCase();
    expect(result.kept.map((t) => t.name)).toEqual([expected]);
    expect(result.unknownPatterns).toEqual([]);
  });
});
