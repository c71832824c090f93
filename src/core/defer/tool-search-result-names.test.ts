// Reading a tool_search result's listed names back from its pinned text format.
import { describe, expect, it } from "vitest";
import type { ToolResultBlock } from "../types.js";
import { toolSearchResultNames } from "./tool-search-result-names.js";

const result = (text: string, isError = false): ToolResultBlock => ({
  type: "tool_result",
  tool_use_id: "s1",
  content: [{ type: "text", text }],
  ...(isError ? { is_error: true } : {}),
});

describe("toolSearchResultNames", () => {
  it("reads the name of each `<name>: <description>` line, in order", () => {
    expect(toolSearchResultNames(result("gh__create_issue: Create an issue\nweather-now: Forecasts: today"))).toEqual([
      "gh__create_issue",
      "weather-now",
    ]);
  });

  it("gives nothing for an error, for a search that found nothing, or for what is not a result", () => {
    expect(toolSearchResultNames(result("weather: x", true))).toEqual([]);
    expect(toolSearchResultNames(result('No deferred tool matched "x" (3 tools are deferred).'))).toEqual([]);
    expect(toolSearchResultNames(null as unknown as ToolResultBlock)).toEqual([]);
    expect(toolSearchResultNames({ content: "weather: x" } as unknown as ToolResultBlock)).toEqual([]);
  });
});
