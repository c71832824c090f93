// Tools reachable only through code (the registry's `codeOnly`, for code mode): callable by name, never sent to the
// model, listed in the system prompt or found by tool_search.
import { describe, expect, it } from "vitest";
import { textOf } from "../../../test/support/session.js";
import { createAgentSession } from "../../create-agent-session.js";
import { TOOL_SEARCH_NAME } from "../defer/create-tool-search-tool.js";
import { toolSearchResultNames } from "../defer/tool-search-result-names.js";
import { defineTool } from "../register/define-tool.js";
import { createToolRegistry } from "../register/registry.js";
import type { AgentTool, ToolRegistryOptions } from "../types.js";

function described(name: string, description: string): AgentTool {
  return defineTool({
    name,
    description,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    execute: () => `${name} ran`,
  });
}

const TOOLS = [
  described("read", "Read a file"),
  described("weather", "Get the weather forecast for a city"),
  described("stocks", "Get a stock quote by ticker symbol"),
];

function session(options: Omit<ToolRegistryOptions, "custom"> = { codeOnly: ["weather"] }) {
  return createAgentSession({ registry: createToolRegistry({ custom: TOOLS, ...options }), systemPrompt: "Be brief." });
}

const names = (tools: readonly AgentTool[]) => tools.map((tool) => tool.descriptor.name);

describe("a session with code-only tools", () => {
  it("keeps them active and callable by name, and lists them in codeOnlyTools", async () => {
    const s = session();
    expect(s.activeToolNames).toEqual(["read", "stocks", "weather"]);
    expect(names(s.codeOnlyTools)).toEqual(["weather"]);
    expect(textOf(await s.dispatch({ id: "1", name: "weather", input: {} }))).toBe("weather ran");
  });

  it("never makes run_code code-only: with every tool code-only, the model is sent code mode's tool alone", () => {
    const registry = createToolRegistry({
      custom: [...TOOLS, described("run_code", "Run a program")],
      codeOnly: ["*"],
    });
    const s = createAgentSession({ registry });
    expect(names(s.modelTools)).toEqual(["run_code"]);
    expect(names(s.codeOnlyTools)).toEqual(["read", "stocks", "weather"]);
  });

  it("leaves them out of modelTools and the system prompt", () => {
    const s = session();
    expect(names(s.modelTools)).toEqual(["read", "stocks"]);
    expect(s.systemPrompt).toContain("- stocks:");
    expect(s.systemPrompt).not.toContain("weather");
  });

  it("never defers them, so tool_search cannot find them, even when a defer pattern matches them too", async () => {
    const s = session({ codeOnly: ["weather"], defer: ["weather", "stocks"] });
    expect(s.deferredToolNames).toEqual(["stocks"]);
    expect(s.registry.deferred.has("weather")).toBe(false);
    expect(names(s.modelTools)).toEqual(["read", TOOL_SEARCH_NAME]);
    const found = await s.dispatchDetailed({
      id: "s",
      name: TOOL_SEARCH_NAME,
      input: { query: "weather forecast city" },
    });
    expect(toolSearchResultNames(found.block)).not.toContain("weather");
    const stock = await s.dispatchDetailed({ id: "t", name: TOOL_SEARCH_NAME, input: { query: "stock quote" } });
    expect(toolSearchResultNames(stock.block)).toEqual(["stocks"]);
    expect(s.loadDeferredTools(["weather"])).toEqual([]);
    expect(names(s.modelTools)).not.toContain("weather");
  });

  it("is empty with no codeOnly, and every active tool is sent", () => {
    const s = session({});
    expect(s.codeOnlyTools).toEqual([]);
    expect(s.modelTools).toEqual([...s.activeTools.values()]);
  });

  it("follows registry.refresh: a tool made code-only leaves modelTools, and comes back when it no longer is", () => {
    const s = session({});
    const changes: (readonly string[])[] = [];
    s.onActiveToolsChange((active) => changes.push(active));
    s.registry.refresh({ codeOnly: ["group:*", "stocks"] });
    expect(names(s.codeOnlyTools)).toEqual(["stocks"]);
    expect(names(s.modelTools)).toEqual(["read", "weather"]);
    expect(s.systemPrompt).not.toContain("stocks");
    s.registry.refresh({ codeOnly: [] });
    expect(s.codeOnlyTools).toEqual([]);
    expect(names(s.modelTools)).toEqual(["read", "stocks", "weather"]);
    // The active set never changed: code-only tools stay callable.
    expect(changes).toEqual([]);
  });

  it("keeps codeOnly across refreshes that change something else", () => {
    const s = session();
    s.registry.refresh({ defer: ["stocks"] });
    expect(names(s.codeOnlyTools)).toEqual(["weather"]);
    expect(names(s.modelTools)).toEqual(["read", TOOL_SEARCH_NAME]);
  });

  it("narrows codeOnlyTools to the active set", () => {
    const s = session({ codeOnly: ["weather", "stocks"] });
    s.setActiveToolsByName(["read", "stocks"]);
    expect(names(s.codeOnlyTools)).toEqual(["stocks"]);
    expect(names(s.modelTools)).toEqual(["read"]);
  });
});
