import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue, ToolDescriptor } from "../types.js";
import {
  createToolSearchIndex,
  MAX_SEARCH_PARAMETERS,
  TOOL_SEARCH_FIELDS,
  toolSearchDocument,
} from "./create-tool-search-index.js";

function tool(name: string, description: string, properties: JsonObject = {}, title?: string): ToolDescriptor {
  return {
    name,
    description,
    inputSchema: { type: "object", properties },
    owner: { kind: "mcp", serverId: "test" },
    ...(title === undefined ? {} : { title }),
  };
}

const TOOLS: ToolDescriptor[] = [
  tool("github__create_issue", "Create a new issue in a GitHub repository.", {
    owner: { type: "string" },
    repo: { type: "string" },
    title: { type: "string", description: "The issue's title" },
  }),
  tool("github__list_pull_requests", "List the pull requests of a repository, open or closed.", {
    state: { type: "string", enum: ["open", "closed"] },
  }),
  tool("browser_take_screenshot", "Take a screenshot of the current page.", {
    fullPage: { type: "boolean", description: "Capture the whole scrollable page" },
  }),
  tool("memory__create_entities", "Create entities in the knowledge graph.", {
    entities: {
      type: "array",
      items: { type: "object", properties: { observations: { type: "array", description: "Facts about it" } } },
    },
  }),
  tool("fs__read_text_file", "Read a file's contents as text.", { path: { type: "string" } }),
];

const names = (query: string, limit = 5) =>
  createToolSearchIndex(TOOLS)
    .search(query, limit)
    .map((found) => found.name);

describe("createToolSearchIndex", () => {
  it("ranks the tool whose name and description say what the query asks first", () => {
    expect(names("open an issue on github")[0]).toBe("github__create_issue");
    expect(names("capture the page as an image")[0]).toBe("browser_take_screenshot");
    expect(names("read the contents of a file")[0]).toBe("fs__read_text_file");
  });

  it("matches word forms through stemming (screenshots, reading, files)", () => {
    expect(names("screenshots")[0]).toBe("browser_take_screenshot");
    expect(names("reading files")[0]).toBe("fs__read_text_file");
  });

  it("finds a tool by a parameter's name or description", () => {
    expect(names("observations")).toEqual(["memory__create_entities"]);
    expect(names("scrollable")).toEqual(["browser_take_screenshot"]);
  });

  it("finds a tool by its MCP server prefix", () => {
    expect(names("github")).toEqual(["github__create_issue", "github__list_pull_requests"]);
  });

  it("puts the tool whose exact name is the query first, ignoring case", () => {
    expect(names("  MEMORY__create_entities ")[0]).toBe("memory__create_entities");
  });

  it("lists at most limit tools, and none for words no tool has or for only stop words", () => {
    expect(names("create", 1)).toHaveLength(1);
    expect(names("create", 0)).toEqual([]);
    expect(names("kubernetes helm chart")).toEqual([]);
    expect(names("the of and")).toEqual([]);
  });

  it("weighs the name more than the description", () => {
    const index = createToolSearchIndex([
      tool("describe_weather", "Looks up a city."),
      tool("lookup_city", "Describes the weather."),
    ]);
    expect(index.search("weather", 2).map((found) => found.name)).toEqual(["describe_weather", "lookup_city"]);
  });
});

describe("toolSearchDocument", () => {
  it("reads the name and title, the description, and the parameters' names and descriptions, nested ones too", () => {
    expect(
      toolSearchDocument(
        tool(
          "memory__add",
          "Adds things.",
          {
            items: {
              type: "array",
              items: { type: "object", properties: { label: { type: "string", description: "A short label" } } },
            },
          },
          "Add Memory",
        ),
      ),
    ).toEqual([
      ["memory", "add", "add", "memory"],
      ["add", "thing"],
      ["item", "label"],
      ["short", "label"],
    ]);
  });
});

describe("toolSearchDocument, bounds", () => {
  const words = (count: number, prefix = "w") => Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(" ");

  it("reads each field up to its cap: 64 terms of the name and title, 256 of the description, 128 and 256 of the parameters", () => {
    const properties: Record<string, JsonValue> = {};
    for (let i = 0; i < 40; i++) properties[`first${i}_second${i}`] = { type: "string", description: words(20) };
    const document = toolSearchDocument(tool("huge", words(1000), properties, words(1000)));
    expect(TOOL_SEARCH_FIELDS.map((field) => field.maxTerms)).toEqual([64, 256, 128, 256]);
    expect(document.map((terms) => terms.length)).toEqual([64, 256, 80, 256]);
    expect(document[1]?.slice(-1)).toEqual(["w255"]);
  });

  it("reads the first 64 parameters, nested ones where they occur, and none after", () => {
    const properties: Record<string, JsonValue> = {
      p0: { type: "object", properties: Object.fromEntries([0, 1, 2].map((i) => [`q${i}`, { type: "string" }])) },
    };
    for (let i = 1; i < 100; i++) properties[`p${i}`] = { type: "string", description: `about p${i}` };
    const [, , names, descriptions] = toolSearchDocument(tool("many", "Many parameters.", properties));
    expect(MAX_SEARCH_PARAMETERS).toBe(64);
    expect(names).toEqual(["p0", "q0", "q1", "q2", ...Array.from({ length: 60 }, (_, i) => `p${i + 1}`)]);
    expect(descriptions).toEqual(Array.from({ length: 60 }, (_, i) => ["about", `p${i + 1}`]).flat());
  });

  it("does not read a field past 16 characters a term of its cap: a word after a megabyte of stop words is not found", () => {
    const buried = tool("buried", `${"a ".repeat(1 << 19)}kubernetes`);
    expect(createToolSearchIndex([buried]).search("kubernetes", 5)).toEqual([]);
    expect(createToolSearchIndex([tool("plain", "kubernetes")]).search("kubernetes", 5)).toHaveLength(1);
  });

  it("indexes a tool with a 1 MB description, a 1 MB title and 100,000 parameters in well under a second", () => {
    const megabyte = words(1 << 17).slice(0, 1 << 20);
    const properties: Record<string, JsonValue> = {};
    for (let i = 0; i < 100_000; i++) properties[`p${i}`] = { type: "string", description: words(10) };
    const huge = tool("huge", megabyte, properties, megabyte);
    // This process's CPU time, which other processes on a busy machine do not inflate as they do the clock's.
    const started = process.cpuUsage();
    createToolSearchIndex([huge, ...TOOLS]).search("read a file", 5);
    const { user, system } = process.cpuUsage(started);
    // Bounded by the caps, this takes a few milliseconds; reading everything took seconds.
    expect((user + system) / 1000).toBeLessThan(1000);
  });
});
