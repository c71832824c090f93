// The tool search index: BM25F over each tool's name, description, and its parameters' names and descriptions.
import { isRecord } from "../json.js";
import type { JsonValue, ToolDescriptor } from "../types.js";
import { type Bm25Field, createBm25Index } from "./create-bm25-index.js";
import { tokenizeSearchText } from "./tokenize-search-text.js";

/**
 * The fields of a tool, with their weights: its name (with an MCP server's `server__` prefix and its title), its
 * description, its parameters' names, and its parameters' descriptions. A name is short and says what the tool is
 * (weight 3, little length normalisation); a description says more in more words (weight 1).
 */
export const TOOL_SEARCH_FIELDS: readonly (Bm25Field & { readonly name: string })[] = Object.freeze([
  { name: "name", weight: 3, b: 0.3 },
  { name: "description", weight: 1, b: 0.75 },
  { name: "parameter names", weight: 1.5, b: 0.5 },
  { name: "parameter descriptions", weight: 0.5, b: 0.75 },
]);

/** How many levels of nested object and array schemas are read for parameters. */
const PARAMETER_DEPTH = 4;

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

/** A tool's search terms, field by field, in the order of `TOOL_SEARCH_FIELDS`. */
export function toolSearchDocument(tool: ToolDescriptor): string[][] {
  const names: string[] = [];
  const descriptions: string[] = [];
  collectParameters(tool.inputSchema, PARAMETER_DEPTH, names, descriptions);
  return [
    tokenizeSearchText(tool.title === undefined ? tool.name : `${tool.name} ${tool.title}`),
    tokenizeSearchText(tool.description),
    tokenizeSearchText(names.join(" ")),
    tokenizeSearchText(descriptions.join(" ")),
  ];
}

function collectParameters(schema: JsonValue | undefined, depth: number, names: string[], descriptions: string[]) {
  if (depth === 0 || !isRecord(schema)) return;
  const properties = schema.properties;
  if (isRecord(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      names.push(name);
      if (isRecord(property) && typeof property.description === "string") descriptions.push(property.description);
      collectParameters(property, depth - 1, names, descriptions);
    }
  }
  const items = schema.items;
  if (isRecord(items)) collectParameters(items, depth - 1, names, descriptions);
}
