import { describe, expect, it } from "vitest";
import type { JsonObject, ToolDescriptor } from "../types.js";
import { createToolSearchIndex, toolSearchDocument } from "./create-tool-search-index.js";

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
