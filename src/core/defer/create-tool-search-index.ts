// The tool search index: BM25F over each tool's name, description, and its parameters' names and descriptions.
import { isRecord } from "../json.js";
import type { JsonValue, ToolDescriptor } from "../types.js";
import { type Bm25Field, createBm25Index } from "./create-bm25-index.js";
import { tokenizeSearchText } from "./tokenize-search-text.js";

/** One field of a tool's search document: its BM25F weight and typical length, and how much of it is read. */
interface ToolSearchField extends Bm25Field {
  readonly name: string;
  /** Only the field's first `maxTerms` terms are read, from at most 16 × `maxTerms` characters of its text. */
  readonly maxTerms: number;
}

/**
 * The fields of a tool: its name (with an MCP server's `server__` prefix and its title), its description, its
 * parameters' names, and its parameters' descriptions. A name is short and says what the tool is (weight 3); a
 * description says more in more words (weight 1). Up to its typical length a field counts in full; a longer one
 * counts less the longer it is (see `createBm25Index`). Each field is read up to 8 times its typical length, so a
 * term found in a field always counts at least 1/64 of the field's weight, and a huge definition costs no more than
 * that to index.
 */
export const TOOL_SEARCH_FIELDS: readonly ToolSearchField[] = Object.freeze([
  { name: "name", weight: 3, typicalLength: 8, maxTerms: 64 },
  { name: "description", weight: 1, typicalLength: 32, maxTerms: 256 },
  { name: "parameter names", weight: 1.5, typicalLength: 16, maxTerms: 128 },
  { name: "parameter descriptions", weight: 0.5, typicalLength: 32, maxTerms: 256 },
]);

/** How many parameters are read, in schema order, nested ones included where they occur; the rest are not. */
export const MAX_SEARCH_PARAMETERS = 64;
/** How many levels of nested object and array schemas are read for parameters. */
const PARAMETER_DEPTH = 4;
/** A field's texts are read up to `maxTerms` times this many characters. */
const CHARACTERS_PER_TERM = 16;

/** A search over a fixed list of tools. */
export interface ToolSearchIndex {
  /**
   * The tools that match `query`, best first, at most `limit`. A query that is exactly one tool's name (ignoring
   * case and surrounding blanks) puts that tool first. Empty when no term of the query occurs in any tool.
   */
  search(query: string, limit: number): ToolDescriptor[];
}

/** Indexes the tools' descriptors once; searching reads only the index. */
export function createToolSearchIndex(tools: readonly ToolDescriptor[]): ToolSearchIndex {
  const documents = tools.map(toolSearchDocument);
  const index = createBm25Index(documents, { fields: TOOL_SEARCH_FIELDS });
  const byName = new Map(tools.map((tool, position) => [tool.name.toLowerCase(), position]));
  return {
    search(query, limit) {
      if (limit <= 0) return [];
      const exact = byName.get(query.trim().toLowerCase());
      const hits = index.search(tokenizeSearchText(query), limit + 1).map((hit) => hit.index);
      const order = exact === undefined ? hits : [exact, ...hits.filter((position) => position !== exact)];
      return order.slice(0, limit).map((position) => tools[position] as ToolDescriptor);
    },
  };
}

/**
 * A tool's search terms, field by field, in the order of `TOOL_SEARCH_FIELDS`: each field's first `maxTerms` terms,
 * from at most 16 × `maxTerms` characters of its texts (the name then the title; the description; the names of the
 * first `MAX_SEARCH_PARAMETERS` parameters; their descriptions). Repeats are kept: they make a field longer.
 */
export function toolSearchDocument(tool: ToolDescriptor): string[][] {
  const names: string[] = [];
  const descriptions: string[] = [];
  collectParameters(tool.inputSchema, PARAMETER_DEPTH, names, descriptions);
  const texts = [
    tool.title === undefined ? [tool.name] : [tool.name, tool.title],
    [tool.description],
    names,
    descriptions,
  ];
  return TOOL_SEARCH_FIELDS.map((field, f) => fieldTerms(texts[f] as string[], field.maxTerms));
}

function fieldTerms(texts: readonly string[], maxTerms: number): string[] {
  const terms: string[] = [];
  let characters = maxTerms * CHARACTERS_PER_TERM;
  for (const text of texts) {
    if (terms.length >= maxTerms || characters <= 0) break;
    const read = text.slice(0, characters);
    characters -= read.length;
    terms.push(...tokenizeSearchText(read, maxTerms - terms.length));
  }
  return terms;
}

function collectParameters(schema: JsonValue | undefined, depth: number, names: string[], descriptions: string[]) {
  if (depth === 0 || !isRecord(schema)) return;
  const properties = schema.properties;
  if (isRecord(properties)) {
    for (const name of Object.keys(properties)) {
      if (names.length >= MAX_SEARCH_PARAMETERS) return;
      const property = properties[name];
      names.push(name);
      if (isRecord(property) && typeof property.description === "string") descriptions.push(property.description);
      collectParameters(property, depth - 1, names, descriptions);
    }
  }
  const items = schema.items;
  if (isRecord(items)) collectParameters(items, depth - 1, names, descriptions);
}
