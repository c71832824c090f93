// The session's side of deferred tools (docs/deferred-tools.md): tool_search among the active tools, and the tools sent
// to the model.
import { describe, expect, it } from "vitest";
import { echoTool, textOf } from "../../../test/support/session.js";
import { createAgentSession } from "../../create-agent-session.js";
import { anthropic } from "../../providers/anthropic.js";
import { openaiChat } from "../../providers/openai-chat.js";
import { MAX_TOOL_SEARCH_LIMIT, TOOL_SEARCH_NAME } from "../defer/create-tool-search-tool.js";
import { defineTool } from "../register/define-tool.js";
import { createToolRegistry } from "../register/registry.js";
import type { AgentTool } from "../types.js";

function described(name: string, description: string, defer?: boolean): AgentTool {
  return defineTool({
    name,
    description,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    ...(defer === undefined ? {} : { defer }),
    execute: () => `${name} ran`,
  });
}

const TOOLS = [
  described("read", "Read a file"),
  described("weather", "Get the weather forecast for a city\nMore lines the search does not show."),
  described("stocks", "Get a stock quote by ticker symbol"),
  described("translate", "Translate text between languages"),
];

function session(defer: readonly string[] = ["weather", "stocks", "translate"], tools = TOOLS) {
  return createAgentSession({ registry: createToolRegistry({ custom: tools, defer }), systemPrompt: "Be brief." });
}

const names = (tools: readonly AgentTool[]) => tools.map((tool) => tool.descriptor.name);
const search = (s: ReturnType<typeof session>, query: string, limit?: number, id = "s1") =>
  s.dispatch({ id, name: TOOL_SEARCH_NAME, input: limit === undefined ? { query } : { query, limit } });

describe("a session with deferred tools", () => {
  it("adds tool_search to the active tools, last, while some active tool is deferred", () => {
    const s = session();
    expect(s.activeToolNames).toEqual(["read", "stocks", "translate", "weather", TOOL_SEARCH_NAME]);
    expect(s.deferredToolNames).toEqual(["stocks", "translate", "weather"]);
    expect(s.activeTools.get(TOOL_SEARCH_NAME)?.descriptor.annotations).toMatchObject({ readOnlyHint: true });
    expect(s.activeTools.get(TOOL_SEARCH_NAME)?.executionMode).toBe("parallel");
  });

  it("has no tool_search, and sends every active tool, when nothing is deferred", () => {
    const s = session([]);
    expect(s.activeToolNames).toEqual(["read", "stocks", "translate", "weather"]);
    expect(s.modelTools).toEqual([...s.activeTools.values()]);
  });

  it("sends the tools that are not deferred, then tool_search", () => {
    expect(names(session().modelTools)).toEqual(["read", TOOL_SEARCH_NAME]);
  });

  it("lists only the tools sent up front in the system prompt", () => {
    const prompt = session().systemPrompt;
    expect(prompt).toContain("- read: Read a file");
    expect(prompt).toContain(`- ${TOOL_SEARCH_NAME}: Finds tools that are available but not listed here`);
    expect(prompt).not.toContain("weather");
  });

  it("answers a search with the matching deferred tools, best first, as name: first line of the description", async () => {
    const s = session();
    const result = await search(s, "weather forecast in Paris");
    expect(result.is_error).toBeUndefined();
    expect(textOf(result)).toBe("weather: Get the weather forecast for a city");
  });

  it("appends the tools a search found to the tools sent, in the order found, keeping the earlier ones as they were", async () => {
    const s = session();
    const before = s.modelTools;
    await search(s, "stock quote");
    await search(s, "translate between languages", 5, "s2");
    await search(s, "weather forecast", 5, "s3");
    const after = s.modelTools;
    expect(names(after)).toEqual(["read", TOOL_SEARCH_NAME, "stocks", "translate", "weather"]);
    before.forEach((tool, index) => {
      expect(after[index]).toBe(tool);
    });
    expect(s.loadedToolNames).toEqual(["stocks", "translate", "weather"]);
  });

  it("keeps the bytes of the tools payload sent before a search as the start of the one sent after it", async () => {
    for (const adapter of [anthropic, openaiChat]) {
      const s = session();
      const before = adapter.formatTools(s.modelTools).map((entry) => JSON.stringify(entry));
      await search(s, "stock quote");
      const after = adapter.formatTools(s.modelTools).map((entry) => JSON.stringify(entry));
      expect(after.length).toBeGreaterThan(before.length);
      expect(after.slice(0, before.length)).toEqual(before);
    }
  });

  it("does not add a tool twice when a later search finds it again", async () => {
    const s = session();
    await search(s, "stock");
    await search(s, "stock ticker", 5, "s2");
    expect(names(s.modelTools)).toEqual(["read", TOOL_SEARCH_NAME, "stocks"]);
  });

  it("says so when nothing matched, and adds nothing", async () => {
    const s = session();
    const result = await search(s, "kubernetes");
    expect(textOf(result)).toBe(
      'No deferred tool matched "kubernetes" (3 tools are deferred). Search again with other words: what the tool acts on, or what it gives back.',
    );
    expect(names(s.modelTools)).toEqual(["read", TOOL_SEARCH_NAME]);
  });

  it("lists at most limit tools (default 5, cut to the maximum)", async () => {
    const many = Array.from({ length: 30 }, (_, i) => described(`city_${i}`, "Facts about a city"));
    const s = session(["city_*"], many);
    const lines = async (limit?: number) => textOf(await search(s, "city", limit)).split("\n").length;
    expect(await lines()).toBe(5);
    expect(await lines(2)).toBe(2);
    expect(await lines(1000)).toBe(MAX_TOOL_SEARCH_LIMIT);
  });

  it("refuses a query that is not a string with a result the model can act on", async () => {
    const result = await session().dispatch({ id: "s1", name: TOOL_SEARCH_NAME, input: { query: 42 } });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toContain("query");
  });

  it("searches only the active deferred tools, never the ones sent up front", async () => {
    const s = session();
    expect(textOf(await search(s, "read a file"))).toMatch(/^No deferred tool matched/);
    s.setActiveToolsByName(["read", "weather"]);
    expect(s.deferredToolNames).toEqual(["weather"]);
    expect(textOf(await search(s, "stock quote", 5, "s2"))).toMatch(/^No deferred tool matched/);
  });

  it("runs a deferred tool called by name, whether or not the model was sent it", async () => {
    const result = await session().dispatch({ id: "c1", name: "stocks", input: {} });
    expect(result.is_error).toBeUndefined();
    expect(textOf(result)).toBe("stocks ran");
  });

  it("treats tool_search in setActiveToolsByName as neither missing nor a registry name", () => {
    const s = session();
    expect(s.setActiveToolsByName(["read", TOOL_SEARCH_NAME, "stocks"])).toEqual({
      active: ["read", "stocks"],
      missing: [],
    });
    expect(s.activeToolNames).toEqual(["read", "stocks", TOOL_SEARCH_NAME]);
    s.setActiveToolsByName(["read"]);
    expect(s.activeToolNames).toEqual(["read"]);
    expect(names(s.modelTools)).toEqual(["read"]);
  });

  it("drops a loaded tool from the tools sent when a refresh stops deferring it, and sends it in its place", async () => {
    const registry = createToolRegistry({ custom: TOOLS, defer: ["weather", "stocks"] });
    const s = createAgentSession({ registry });
    await search(s, "stock quote");
    expect(names(s.modelTools)).toEqual(["read", "translate", TOOL_SEARCH_NAME, "stocks"]);
    registry.refresh({ defer: ["weather"] });
    expect(names(s.modelTools)).toEqual(["read", "stocks", "translate", TOOL_SEARCH_NAME]);
    expect(s.loadedToolNames).toEqual([]);
    registry.refresh({ defer: [] });
    expect(s.activeToolNames).not.toContain(TOOL_SEARCH_NAME);
  });

  it("loadDeferredTools adds active deferred tools once, in order, and skips anything else", () => {
    const s = session();
    expect(s.loadDeferredTools(["translate", "read", "nope", "translate", "weather"])).toEqual([
      "translate",
      "weather",
    ]);
    expect(names(s.modelTools)).toEqual(["read", TOOL_SEARCH_NAME, "translate", "weather"]);
    expect(s.loadDeferredTools(42 as unknown as string[])).toEqual([]);
  });

  it("defers a tool defined with defer: true without any registry pattern", () => {
    const s = session([], [described("a", "First"), described("b", "Second", true)]);
    expect(s.deferredToolNames).toEqual(["b"]);
    expect(names(s.modelTools)).toEqual(["a", TOOL_SEARCH_NAME]);
  });

  it("leaves a registry tool named tool_search in charge: the session adds none of its own", () => {
    const own = described(TOOL_SEARCH_NAME, "The host's own search");
    const s = session(["weather"], [echoTool("read"), described("weather", "Weather"), own]);
    expect(s.activeToolNames).toEqual(["read", TOOL_SEARCH_NAME, "weather"]);
    expect(s.activeTools.get(TOOL_SEARCH_NAME)?.descriptor.description).toBe("The host's own search");
  });
});
