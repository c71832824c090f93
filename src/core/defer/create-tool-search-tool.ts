// tool_search: the one tool a model gets instead of the deferred tools' definitions; the tools it finds join the next
// request.
import { toolCallRefusal } from "../errors.js";
import { defineTool } from "../register/define-tool.js";
import type { AgentTool, JsonObject, ToolDescriptor, ToolProtocolDescriptor } from "../types.js";

/** The search tool's name (docs/deferred-tools.md). */
export const TOOL_SEARCH_NAME = "tool_search";
/** How many tools one search lists when the model gives no `limit`. */
const DEFAULT_TOOL_SEARCH_LIMIT = 5;
/** The most tools one search lists; a larger `limit` is cut to it. */
export const MAX_TOOL_SEARCH_LIMIT = 20;

const INPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    query: {
      type: "string",
      description: "What you want to do, in a few words (or a tool's exact name).",
    },
    limit: {
      type: "integer",
      minimum: 1,
      description: `How many tools to list at most. Default ${DEFAULT_TOOL_SEARCH_LIMIT}, at most ${MAX_TOOL_SEARCH_LIMIT}.`,
    },
  },
  required: ["query"],
  additionalProperties: false,
};

const DESCRIPTION = [
  "Finds tools that are available but not listed here (deferred tools).",
  'Describe the job in a few words (such as "create a GitHub issue" or "screenshot a web page"); the answer lists the best matching tools, one per line as "name: description".',
  "Each tool it lists can be called from your next step on. When nothing fits, search again with other words.",
].join(" ");

/** What the model sees of `tool_search`: the same bytes in every session. */
export const TOOL_SEARCH_DEFINITION: ToolProtocolDescriptor = Object.freeze({
  name: TOOL_SEARCH_NAME,
  description: DESCRIPTION,
  inputSchema: INPUT_SCHEMA,
});

/** What the search tool works on: the session's deferred tools now, and where the tools it finds go. */
interface ToolSearchHost {
  /** Searches the deferred active tools; best first, at most `limit`. */
  search(query: string, limit: number): readonly ToolDescriptor[];
  /** How many active tools are deferred now (for the answer when nothing matched). */
  deferredCount(): number;
  /** Told which tools a search listed, best first, before the result goes back to the model. */
  found(names: readonly string[]): void;
}

/**
 * The `tool_search` tool over a host (a session): read-only, runs in parallel. Input `{ query, limit? }`; the text
 * result lists the matching deferred tools best first, one per line as `<name>: <first line of its description>`,
 * or says that none matched. `details.tools` holds the names listed. A query that is not a string is refused with
 * `invalid-input`; a `limit` that is missing or not a positive integer means `DEFAULT_TOOL_SEARCH_LIMIT`, and one
 * above `MAX_TOOL_SEARCH_LIMIT` is cut to it.
 */
export function createToolSearchTool(host: ToolSearchHost): AgentTool {
  return defineTool({
    ...TOOL_SEARCH_DEFINITION,
    annotations: { readOnlyHint: true, openWorldHint: false },
    effects: "none",
    executionMode: "parallel",
    execute(input: JsonObject) {
      const { query } = input;
      if (typeof query !== "string") {
        throw toolCallRefusal(
          "invalid-input",
          TOOL_SEARCH_NAME,
          `Invalid input for tool ${TOOL_SEARCH_NAME}: query must be a string of words describing the job, got ${query === undefined ? "nothing" : typeof query}`,
        );
      }
      const tools = host.search(query, searchLimit(input.limit));
      const names = tools.map((tool) => tool.name);
      host.found(names);
      const text =
        tools.length === 0
          ? `No deferred tool matched ${JSON.stringify(query)} (${host.deferredCount()} tools are deferred). Search again with other words: what the tool acts on, or what it gives back.`
          : tools.map((tool) => `${tool.name}: ${firstLine(tool.description)}`).join("\n");
      return { content: [{ type: "text", text }], details: { tools: names } };
    },
  });
}

function searchLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) return DEFAULT_TOOL_SEARCH_LIMIT;
  return Math.min(limit, MAX_TOOL_SEARCH_LIMIT);
}

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").trim();
}
