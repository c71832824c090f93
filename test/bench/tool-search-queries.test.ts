// The labelled requests of the deferred-tools benchmark: enough of them, well formed, and spread over every server.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const fixture = JSON.parse(
  readFileSync(new URL("../../bench/fixtures/tool-search-queries.json", import.meta.url), "utf8"),
);
const queries: { query: string; tool: string }[] = fixture.queries;

describe("bench/fixtures/tool-search-queries.json", () => {
  it("holds at least 50 distinct requests, each naming one bridged tool", () => {
    expect(queries.length).toBeGreaterThanOrEqual(50);
    expect(new Set(queries.map((entry) => entry.query.toLowerCase())).size).toBe(queries.length);
    for (const entry of queries) {
      expect(entry.query.trim()).not.toBe("");
      expect(entry.tool).toMatch(/^[a-z]+__[A-Za-z0-9_-]+$/);
    }
  });

  it("asks for tools of every server it names, and of no other", () => {
    const servers = new Set(queries.map((entry) => entry.tool.split("__")[0]));
    expect([...servers].sort()).toEqual(Object.keys(fixture.servers).sort());
  });
});
