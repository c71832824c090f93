import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../providers/clients/types.js";
import { foundToolNames } from "./found-tool-names.js";

const text = (value: string) => [{ type: "text" as const, text: value }];

describe("foundToolNames", () => {
  it("reads the tools each successful tool_search result listed, in order", () => {
    const transcript: TranscriptMessage[] = [
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "",
        toolCalls: [
          { id: "s1", name: "tool_search", input: { query: "a" } },
          { id: "r1", name: "read", input: {} },
        ],
      },
      {
        role: "tool",
        results: [
          { type: "tool_result", tool_use_id: "s1", content: text("gh__issue: Create an issue\nweather: Forecasts") },
          { type: "tool_result", tool_use_id: "r1", content: text("notes: not a search result") },
        ],
      },
      { role: "assistant", text: "", toolCalls: [{ id: "s2", name: "tool_search", input: { query: "b" } }] },
      { role: "tool", results: [{ type: "tool_result", tool_use_id: "s2", content: text("stocks: Quotes") }] },
    ];
    expect(foundToolNames(transcript)).toEqual(["gh__issue", "weather", "stocks"]);
  });

  it("skips error results and a search that found nothing", () => {
    const transcript: TranscriptMessage[] = [
      {
        role: "assistant",
        text: "",
        toolCalls: [
          { id: "s1", name: "tool_search", input: {} },
          { id: "s2", name: "tool_search", input: { query: "x" } },
        ],
      },
      {
        role: "tool",
        results: [
          { type: "tool_result", tool_use_id: "s1", content: text("bad: input"), is_error: true },
          {
            type: "tool_result",
            tool_use_id: "s2",
            content: text('No deferred tool matched "x" (3 tools are deferred).'),
          },
        ],
      },
    ];
    expect(foundToolNames(transcript)).toEqual([]);
  });

  it("never throws on malformed messages", () => {
    const junk = [null, 3, { role: "assistant" }, { role: "tool", results: [null, { content: "x" }] }];
    expect(foundToolNames(junk as unknown as TranscriptMessage[])).toEqual([]);
  });
});
