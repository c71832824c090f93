// A stuffed definition (hundreds of parameters, a title or a description of hundreds of words, the same words over and
// over) never makes a tool outrank the tool a plain request describes.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue, ToolDescriptor } from "../types.js";
import { createToolSearchIndex } from "./create-tool-search-index.js";
import { tokenizeSearchText } from "./tokenize-search-text.js";

interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
}

const fixture: { tools: ToolDefinition[]; queries: { query: string; tool: string }[] } = JSON.parse(
  readFileSync(new URL("../../../test/fixtures/tool-search/ordinary-tools.json", import.meta.url), "utf8"),
);

function descriptor(definition: ToolDefinition): ToolDescriptor {
  return { ...definition, owner: { kind: "mcp", serverId: definition.name.split("__")[0] as string } };
}

const ORDINARY = fixture.tools.map(descriptor);
const QUERIES = fixture.queries;

/** The words of a text that are search terms (not stop words), lowercased. */
const wordsOf = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => tokenizeSearchText(word).length === 1);
/** Every word of the ordinary tools' definitions: names, titles, descriptions, parameters, enums. */
const VOCABULARY = [...new Set(wordsOf(JSON.stringify(fixture.tools)))].filter(
  (word) => !["type", "object", "properties", "description", "required", "items", "string"].includes(word),
);
/** The words of every plain request, the ones a stuffer would guess. */
const QUERY_WORDS = [...new Set(QUERIES.flatMap((entry) => wordsOf(entry.query)))];
const STUFFING = [...new Set([...QUERY_WORDS, ...VOCABULARY])];

/** `count` words taken in turn from `words`, from `offset` on. */
const cycle = (words: readonly string[], count: number, offset = 0) =>
  Array.from({ length: count }, (_, i) => words[(offset + i) % words.length] as string);

/** A tool that is nothing but its stuffing: its name and, unless stuffed, its other fields match no request. */
function stuffedTool(name: string, parts: Partial<ToolDefinition>): ToolDescriptor {
  return descriptor({ name, description: "A helper.", inputSchema: { type: "object", properties: {} }, ...parts });
}

function parameters(names: readonly string[], description?: (i: number) => string): JsonObject {
  const properties: Record<string, JsonValue> = {};
  names.forEach((name, i) => {
    properties[name] = description === undefined ? { type: "string" } : { type: "string", description: description(i) };
  });
  return { type: "object", properties };
}

/** The stuffed tools, by what they stuff; each is made for the request (only the last uses its words). */
const STUFFED: Record<string, (query: string) => ToolDescriptor> = {
  "400 parameters named after common words": () =>
    stuffedTool("stuffed__many_parameters", {
      inputSchema: parameters(cycle(STUFFING, 400), (i) => `The ${STUFFING[i % STUFFING.length]}.`),
    }),
  "a 400-word title": () => stuffedTool("stuffed__long_title", { title: cycle(STUFFING, 400, 7).join(" ") }),
  "a 400-word description of every other tool's words": () =>
    stuffedTool("stuffed__long_description", { description: cycle(STUFFING, 400, 13).join(" ") }),
  "an enum of 5,000 words": () =>
    stuffedTool("stuffed__huge_enum", {
      inputSchema: {
        type: "object",
        properties: { mode: { type: "string", enum: cycle(STUFFING, 5000), description: "The mode." } },
      },
    }),
  "every field at 400 words": () =>
    stuffedTool("stuffed__everything", {
      title: cycle(STUFFING, 400, 3).join(" "),
      description: cycle(STUFFING, 400, 5).join(" "),
      inputSchema: parameters(cycle(STUFFING, 400, 11), (i) => cycle(STUFFING, 10, i * 10).join(" ")),
    }),
  "the request's own words, over and over, in every field": (query) => {
    const words = wordsOf(query);
    return stuffedTool("stuffed__repeated_words", {
      title: cycle(words, 20 * words.length).join(" "),
      description: cycle(words, 100 * words.length).join(" "),
      inputSchema: parameters(
        cycle(words, 30 * words.length).map((word, i) => `${word}_${i}`),
        () => words.join(" "),
      ),
    });
  },
};

const ranked = (tools: readonly ToolDescriptor[], query: string) =>
  createToolSearchIndex(tools)
    .search(query, tools.length)
    .map((tool) => tool.name);

/** The stuffed tools listed above `tool` for `query`. */
function stuffedAbove(stuffed: readonly ToolDescriptor[], query: string, tool: string): string[] {
  const names = ranked([...ORDINARY, ...stuffed], query);
  const rank = names.indexOf(tool);
  const above = rank < 0 ? names : names.slice(0, rank);
  return above.filter((name) => stuffed.some((found) => found.name === name));
}

describe("tool_search over ordinary tools", () => {
  it.each(QUERIES)("ranks $tool first for $query", ({ query, tool }) => {
    expect(ranked(ORDINARY, query)[0]).toBe(tool);
  });
});

describe("tool_search against stuffed definitions", () => {
  it.each(Object.keys(STUFFED))("ranks a tool with %s below the tool each plain request describes", (kind) => {
    const make = STUFFED[kind] as (query: string) => ToolDescriptor;
    const beaten = QUERIES.filter(({ query, tool }) => stuffedAbove([make(query)], query, tool).length > 0);
    expect(beaten.map((entry) => entry.query)).toEqual([]);
  });

  it("ranks every stuffed tool at once below the tool each plain request describes", () => {
    const beaten = QUERIES.map(({ query, tool }) => ({
      query,
      above: stuffedAbove(
        Object.values(STUFFED).map((make) => make(query)),
        query,
        tool,
      ),
    })).filter((entry) => entry.above.length > 0);
    expect(beaten).toEqual([]);
  });
});

/** The fields a stuffer fills (a tool's name is its own, at most 64 characters). */
const STUFFABLE = ["title", "description", "parameter names", "parameter descriptions"] as const;

/** At least `least` and up to 3,000 words, each the request's or another tool's, repeats allowed. */
function stuffing(queryWords: readonly string[], least: number): fc.Arbitrary<string[]> {
  const word = fc.oneof(fc.constantFrom(...queryWords), fc.constantFrom(...VOCABULARY));
  const length = fc.oneof(fc.integer({ min: least, max: 4 * least }), fc.integer({ min: least, max: 3000 }));
  return length.chain((count) => fc.array(word, { minLength: count, maxLength: count }));
}

/**
 * A tool with one or more fields stuffed with the request's words and the other tools' words, in any mix, each with
 * at least three times the field's typical length in terms (8 for the title, with the name; 32 for the description;
 * 16 for the parameters' names, each of which is a word and a number here; 32 for their descriptions).
 */
function stuffedForQuery(query: string): fc.Arbitrary<ToolDescriptor> {
  const words = wordsOf(query);
  return fc
    .tuple(
      fc.subarray([...STUFFABLE], { minLength: 1 }),
      stuffing(words, 24),
      stuffing(words, 96),
      stuffing(words, 48),
      stuffing(words, 96),
    )
    .map(([fields, title, description, names, descriptions]) => {
      const has = (field: (typeof STUFFABLE)[number]) => fields.includes(field);
      const parameterNames = has("parameter names") ? names.map((name, i) => `${name}_${i}`) : ["input"];
      return stuffedTool("acme__helper", {
        ...(has("title") ? { title: title.join(" ") } : {}),
        ...(has("description") ? { description: description.join(" ") } : {}),
        // All the parameter descriptions' words on the first parameter, which is always read.
        inputSchema: parameters(parameterNames, (i) =>
          i === 0 && has("parameter descriptions") ? descriptions.join(" ") : "",
        ),
      });
    });
}

describe("tool_search against stuffed definitions, properties", () => {
  it("ranks the tool a plain request describes above a tool stuffed in any fields, at 3 times their typical length or more", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...QUERIES).chain((entry) => fc.tuple(fc.constant(entry), stuffedForQuery(entry.query))),
        ([{ query, tool }, stuffed]) => {
          expect(stuffedAbove([stuffed], query, tool)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
