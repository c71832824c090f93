import { describe, expect, it } from "vitest";
import { defineTool } from "../register/define-tool.js";
import type { AgentTool, ToolOwnerRef } from "../types.js";
import { TOOL_SEARCH_DEFINITION } from "./create-tool-search-tool.js";
import { estimateToolTokens } from "./estimate-tool-tokens.js";
import { planDeferral } from "./plan-deferral.js";

/** A tool whose definition is about `size` characters of description long. */
function tool(name: string, owner: ToolOwnerRef = { kind: "core" }, size = 40, defer?: boolean): AgentTool {
  return defineTool({
    name,
    description: "x".repeat(size),
    inputSchema: { type: "object" },
    owner,
    ...(defer === undefined ? {} : { defer }),
    execute: () => "",
  });
}

const mcp = (serverId: string): ToolOwnerRef => ({ kind: "mcp", serverId });
const plugin = (pluginId: string): ToolOwnerRef => ({ kind: "plugin", pluginId });

describe("planDeferral", () => {
  it("defers nothing without marks, patterns or a budget", () => {
    expect(planDeferral({ tools: [tool("a"), tool("b", mcp("s"))] }).deferred.size).toBe(0);
  });

  it("defers a tool marked defer: true, whatever the patterns say", () => {
    const marked = tool("a", { kind: "core" }, 40, true);
    const plan = planDeferral({ tools: [marked, tool("b")], patterns: ["a"] });
    expect([...plan.deferred]).toEqual([["a", { reason: "marked", tokens: estimateToolTokens(marked) }]]);
    expect(plan.unknownPatterns).toEqual([]);
  });

  it("defers the tools a pattern matches (names, globs, mcp:<id>, plugin:<id>, group:), naming the first pattern", () => {
    const tools = [tool("read"), tool("gh__issue", mcp("gh")), tool("notes_add", plugin("notes")), tool("other")];
    const plan = planDeferral({ tools, patterns: ["mcp:GH", "notes_*", "plugin:notes", "group:fs"] });
    expect([...plan.deferred].map(([name, why]) => [name, why.reason, "pattern" in why ? why.pattern : ""])).toEqual([
      ["read", "pattern", "group:fs"],
      ["gh__issue", "pattern", "mcp:GH"],
      ["notes_add", "pattern", "notes_*"],
    ]);
  });

  it("reports the patterns that matched no tool, once, as written", () => {
    const plan = planDeferral({ tools: [tool("a")], patterns: ["a", "Nope", "Nope", "mcp:none"] });
    expect(plan.unknownPatterns).toEqual(["Nope", "mcp:none"]);
  });

  it("under a budget, defers MCP and plugin tools largest first until the rest fit, never core tools", () => {
    const core = tool("core_tool", { kind: "core" }, 4000);
    const small = tool("s__small", mcp("s"), 100);
    const large = tool("s__large", mcp("s"), 2000);
    const middle = tool("p_middle", plugin("p"), 1000);
    const tools = [core, small, large, middle];
    const sizes = tools.map(estimateToolTokens);
    const all = sizes.reduce((sum, size) => sum + size, 0);
    const search = estimateToolTokens(TOOL_SEARCH_DEFINITION);
    expect(sizes[2]).toBeGreaterThan(search); // so that deferring it pays for tool_search
    // Room for everything but the large one (and tool_search): only the large one goes.
    const budget = all - (sizes[2] as number) + search;
    const plan = planDeferral({ tools, budgetTokens: budget });
    expect([...plan.deferred]).toEqual([
      ["s__large", { reason: "budget", tokens: sizes[2], budgetTokens: budget, sentTokens: all }],
    ]);
    // A budget below the core tool alone defers every MCP and plugin tool, and stops there.
    const tight = planDeferral({ tools, budgetTokens: 10 });
    expect([...tight.deferred.keys()]).toEqual(["s__small", "s__large", "p_middle"]);
  });

  it("counts tool_search's own definition once a tool is deferred", () => {
    const tools = [tool("s__a", mcp("s"), 2000), tool("s__b", mcp("s"), 2000)];
    const [a, b] = tools.map(estimateToolTokens) as [number, number];
    const search = estimateToolTokens(TOOL_SEARCH_DEFINITION);
    expect(a + b).toBeGreaterThan(b + search - 1);
    // Deferring one leaves the other plus tool_search: one token too many for this budget, so both go.
    const plan = planDeferral({ tools, budgetTokens: b + search - 1 });
    expect(plan.deferred.size).toBe(2);
    expect(planDeferral({ tools, budgetTokens: a + b }).deferred.size).toBe(0);
  });

  it("breaks ties between tools of the same size by name", () => {
    const tools = [tool("s__b", mcp("s"), 2000), tool("s__a", mcp("s"), 2000)];
    const one = estimateToolTokens(tools[0] as AgentTool);
    const search = estimateToolTokens(TOOL_SEARCH_DEFINITION);
    const plan = planDeferral({ tools, budgetTokens: one + search });
    expect([...plan.deferred.keys()]).toEqual(["s__a"]);
  });

  it("keeps the tools' order in the result, whatever order the budget deferred them in", () => {
    const tools = [tool("s__small", mcp("s"), 10), tool("s__large", mcp("s"), 900)];
    expect([...planDeferral({ tools, budgetTokens: 0 }).deferred.keys()]).toEqual(["s__small", "s__large"]);
  });
});
