// declareTools: real MCP servers' tools become declarations the TypeScript compiler accepts, within a budget.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { typeCheck } from "../../../test/support/type-check.js";
import type { JsonObject } from "../../core/types.js";
import { declareTools } from "./declare-tools.js";
import type { DeclarableTool } from "./types.js";

const FIXTURES = new URL("../../../test/fixtures/", import.meta.url);

interface Listing {
  readonly server: string;
  readonly tools: readonly DeclarableTool[];
}

/** Every tool listing of the fixtures: the MCP servers' `tools/list` results and the tool_search corpus. */
function readListings(): Listing[] {
  const files = [
    new URL("mcp/mcp-tools-list.everything.json", FIXTURES),
    ...readdirSync(new URL("mcp-listings/", FIXTURES))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => new URL(`mcp-listings/${name}`, FIXTURES)),
  ];
  const listings = files.map((file) => {
    const capture = JSON.parse(readFileSync(file, "utf8")) as {
      _source: string;
      result: { tools: { name: string; description?: string; inputSchema: JsonObject; outputSchema?: JsonObject }[] };
    };
    const tools = capture.result.tools.map((tool) => ({ ...tool, description: tool.description ?? "" }));
    return { server: capture._source.split(" ")[0] as string, tools };
  });
  const search = JSON.parse(readFileSync(new URL("tool-search/ordinary-tools.json", FIXTURES), "utf8")) as {
    tools: DeclarableTool[];
  };
  return [...listings, { server: "tool-search/ordinary-tools", tools: search.tools }];
}

const listings = readListings();

function tool(name: string, inputSchema: JsonObject, more: Partial<DeclarableTool> = {}): DeclarableTool {
  return { name, description: "", inputSchema, ...more };
}

describe("declareTools", () => {
  it("declares one async method per tool, its description as a doc comment and its result as text", () => {
    const { text, byName, summarized } = declareTools([
      tool(
        "read_file",
        {
          type: "object",
          properties: { path: { type: "string", description: "Where the file is." }, head: { type: "number" } },
          required: ["path"],
        },
        { description: "Reads a file.\nText files only." },
      ),
      tool("list_roots", { type: "object", properties: {} }, { description: "Lists the roots." }),
    ]);
    expect(text).toBe(
      [
        "declare const tools: {",
        "  /**",
        "   * Reads a file.",
        "   * Text files only.",
        "   */",
        "  read_file(input: {",
        "    /** Where the file is. */",
        "    path: string;",
        "    head?: number;",
        "  }): Promise<string>;",
        "  /** Lists the roots. */",
        "  list_roots(input?: {}): Promise<string>;",
        "};",
      ].join("\n"),
    );
    expect(byName.get("list_roots")).toBe("/** Lists the roots. */\nlist_roots(input?: {}): Promise<string>;");
    expect(summarized).toEqual([]);
  });

  it("types a call's result from the tool's outputSchema, its fields without doc comments", () => {
    const { text } = declareTools([
      tool(
        "count",
        { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        {
          outputSchema: {
            type: "object",
            properties: { n: { type: "integer", description: "How many." } },
            required: ["n"],
          },
        },
      ),
    ]);
    expect(text).toBe("declare const tools: {\n  count(input: { q: string }): Promise<{ n: number }>;\n};");
  });

  it("quotes a name that is not an identifier, and a program calls it by index", () => {
    const { text } = declareTools([
      tool("get-issue", { type: "object", properties: { id: { type: "integer" } }, required: ["id"] }),
    ]);
    expect(text).toContain('  "get-issue"(input: { id: number }): Promise<string>;');
    const program = 'async function program() { const body: string = await tools["get-issue"]({ id: 7 }); }';
    expect(typeCheck({ "/quoted.ts": `${text}\n${program}` })).toEqual([]);
  });

  it("never lets a description end its comment early", () => {
    const hostile = "evil */ declare const pwned: number; /*";
    const { text } = declareTools(
      [
        tool(
          "a",
          { type: "object", properties: { x: { type: "string", description: hostile, default: hostile } } },
          { description: `${hostile}\nsecond ${hostile}` },
        ),
        tool("b", { type: "object" }, { description: `${hostile}. More.` }),
      ],
      { budgetTokens: 1 },
    );
    expect(text).toContain("/** evil *\\/ declare const pwned");
    const errors = typeCheck({ "/hostile.ts": `${text}\npwned;` });
    expect(errors).toEqual([expect.stringContaining("Cannot find name 'pwned'")]);
  });

  it("gives the same bytes for the same tools", () => {
    const build = () => listings.flatMap(({ tools }) => tools).map((each) => structuredClone(each));
    const first = declareTools(build(), { budgetTokens: 5000 });
    const second = declareTools(build(), { budgetTokens: 5000 });
    expect(second.text).toBe(first.text);
    expect([...second.byName]).toEqual([...first.byName]);
    expect(second.summarized).toEqual(first.summarized);
  });

  it("declares a tool whose listing left the description out", () => {
    const listed = { name: "bare", inputSchema: { type: "object" } } as unknown as DeclarableTool;
    expect(declareTools([listed], { budgetTokens: 1 }).byName.get("bare")).toBe(
      "bare(input?: Record<string, unknown>): Promise<string>;",
    );
  });

  it("keeps the first of two tools of one name", () => {
    const { text, byName } = declareTools([
      tool("twice", { type: "object" }, { description: "First." }),
      tool("twice", { type: "object" }, { description: "Second." }),
    ]);
    expect(text).not.toContain("Second.");
    expect([...byName.keys()]).toEqual(["twice"]);
  });
});

describe("declareTools over a budget", () => {
  const big = tool(
    "big",
    {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 20 }, (_, index) => [`field${index}`, { type: "string", description: "A field." }]),
      ),
    },
    { description: "The big one. It has many fields." },
  );
  const middle = tool(
    "middle",
    {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 8 }, (_, index) => [`field${index}`, { type: "string", description: "A field." }]),
      ),
    },
    { description: "The middle one." },
  );
  const small = tool("small", { type: "object", properties: { a: { type: "string" } } }, { description: "Small." });

  it("declares the largest tools in one line each, largest first, until the text fits", () => {
    const all = declareTools([small, big, middle]);
    const withoutBig = all.text.length - (all.byName.get("big") as string).length;
    const budgetTokens = Math.ceil((withoutBig + 600) / 4);
    const { text, summarized, byName } = declareTools([small, big, middle], { budgetTokens });
    expect(summarized).toEqual(["big"]);
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(budgetTokens);
    expect(text).toContain("  /** The big one. */ big(input: Record<string, unknown>): Promise<unknown>;");
    expect(text).toContain("await tools.tool_search({ query })");
    expect(text).toContain("  tool_search(input: { query: string; limit?: number }): Promise<");
    expect(byName.get("big")).toBe(all.byName.get("big"));

    const tight = declareTools([small, big, middle], { budgetTokens: 1 });
    // One line would not make `small` any shorter, so it stays whole.
    expect(tight.summarized).toEqual(["big", "middle"]);
    expect(tight.text).toContain("  /** Small. */\n  small(input?: { a?: string }): Promise<string>;");
    expect(typeCheck({ "/tight.ts": tight.text })).toEqual([]);
  });

  it("leaves everything whole when it fits", () => {
    const all = declareTools([small, big, middle]);
    const fits = declareTools([small, big, middle], { budgetTokens: Math.ceil(all.text.length / 4) });
    expect(fits.text).toBe(all.text);
    expect(fits.summarized).toEqual([]);
  });

  it("does not declare tool_search twice when a tool has that name", () => {
    const search = tool("tool_search", { type: "object", properties: { query: { type: "string" } } });
    const { text } = declareTools([big, search], { budgetTokens: 1 });
    expect(text.match(/tool_search\(input/g)).toHaveLength(1);
  });
});

describe("declarations of real MCP servers' tools", () => {
  it("type-check, whole and over a budget, in one strict program", () => {
    const files: Record<string, string> = {};
    listings.forEach(({ tools }, index) => {
      files[`/whole-${index}.ts`] = declareTools(tools).text;
      files[`/short-${index}.ts`] = declareTools(tools, { budgetTokens: 500 }).text;
      const each = [...declareTools(tools).byName.values()].join("\n");
      files[`/each-${index}.ts`] = `declare const tools: {\n${each}\n};`;
    });
    expect(listings.reduce((sum, { tools }) => sum + tools.length, 0)).toBeGreaterThanOrEqual(200);
    expect(typeCheck(files)).toEqual([]);
  });

  it("are real types: a right argument type-checks and a wrong one does not", () => {
    const filesystem = listings.find(({ server }) => server.includes("server-filesystem"));
    const { text } = declareTools(filesystem?.tools ?? []);
    const right = [
      "async function program() {",
      '  const file: { content: string } = await tools.read_text_file({ path: "a.txt", head: 3 });',
      '  const both = await Promise.all([tools.list_allowed_directories(), tools.list_directory({ path: "." })]);',
      "  return [file.content, both[1].content];",
      "}",
    ].join("\n");
    expect(typeCheck({ "/right.ts": `${text}\n${right}` })).toEqual([]);
    const wrong = [
      "async function program() {",
      "  await tools.read_text_file({ path: 3 });",
      "  await tools.read_text_file({ head: 3 });",
      '  const count: number = (await tools.read_text_file({ path: "a" })).content;',
      '  await tools.no_such_tool({ path: "a" });',
      "}",
    ].join("\n");
    const errors = typeCheck({ "/wrong.ts": `${text}\n${wrong}` });
    const lines = text.split("\n").length;
    expect(errors.map((error) => Number(/:(\d+):/.exec(error)?.[1]) - lines)).toEqual([2, 3, 4, 5]);
  });
});
