// A program's `tools.tool_search`: the exposed tools that match a query, each with its full declaration.
import { createToolSearchIndex } from "../core/defer/create-tool-search-index.js";
import { isRecord } from "../core/json.js";
import type { JsonValue, ToolDescriptor } from "../core/types.js";
import type { NestedCallAnswer } from "./engine/types.js";

/** The most tools one search gives, and how many when the program does not say. */
const MAX_LIMIT = 20;
const DEFAULT_LIMIT = 5;

/**
 * Searches the exposed tools as the session's `tool_search` does (BM25 over names, descriptions and parameters; an
 * exact name first). `{ query: string, limit?: number }` resolves to `{ tools: [{ name, description, declaration }] }`;
 * a bad input rejects with `invalid-input`.
 */
export function createDeclarationSearch(
  tools: readonly ToolDescriptor[],
  declarationOf: (name: string) => string | undefined,
): (input: JsonValue) => NestedCallAnswer {
  let index: ReturnType<typeof createToolSearchIndex> | undefined;
  return (input) => {
    const query = isRecord(input) ? input.query : undefined;
    const limit = isRecord(input) && input.limit !== undefined ? input.limit : DEFAULT_LIMIT;
    if (typeof query !== "string" || query.trim() === "") {
      return { ok: false, code: "invalid-input", message: "tools.tool_search takes { query: string, limit?: number }" };
    }
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      return {
        ok: false,
        code: "invalid-input",
        message: `tools.tool_search: limit must be a whole number from 1 to ${MAX_LIMIT}`,
      };
    }
    index ??= createToolSearchIndex(tools);
    const found = index.search(query, limit).map((tool) => ({
      name: tool.name,
      description: tool.description,
      declaration: declarationOf(tool.name) ?? "",
    }));
    return { ok: true, value: { tools: found } };
  };
}
