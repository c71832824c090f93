// The TypeScript a program's model reads: `declare const tools`, one async method per tool, within a token budget.
import { docComment } from "./doc-comment.js";
import { propertyName, schemaToType } from "./schema-to-type.js";
import type { DeclarableTool, ToolDeclarations } from "./types.js";

/** Options of `declareTools`. */
export interface DeclareToolsOptions {
  /**
   * The most estimated tokens `text` may take (4 characters a token, as `estimateToolTokens` counts). Over it, the
   * largest tools get one line each until the text fits. Unset: no limit.
   */
  readonly budgetTokens?: number;
}

/** Characters per estimated token, as `estimateToolTokens` counts them. */
const CHARACTERS_PER_TOKEN = 4;
const HEADER = "declare const tools: {";
const FOOTER = "};";
const SHORT_NOTE =
  "  // Over the size budget, declared in short: `await tools.tool_search({ query })` gives a tool's full declaration.";
const TOOL_SEARCH = [
  "  /** Finds tools by name or task: their full declarations, best first. */",
  "  tool_search(input: { query: string; limit?: number }): Promise<{ tools: { name: string; description: string; declaration: string }[] }>;",
].join("\n");
const SHORT_SIGNATURE = "(input: Record<string, unknown>): Promise<unknown>;";
const MAX_SUMMARY = 160;

interface Entry {
  readonly name: string;
  /** The full declaration at no indent (`byName`'s value). */
  readonly full: string;
  /** The full declaration and the one-line one as they sit in `text`, indented by two spaces. */
  readonly fullBlock: string;
  readonly shortBlock: string;
}

/**
 * The declarations of `tools` as a program sees them: a `declare const tools: { … }` block, one method per tool in
 * the order given (the first of a repeated name only), each with its description as a doc comment, its input typed
 * from `inputSchema` (see `schemaToType`) and its result from `outputSchema` (a call resolves to the structured
 * content; its fields without doc comments) or else `string` (the text). Names that are not identifiers are quoted (`tools["get-issue"](…)`).
 *
 * Over `budgetTokens`, the tools with the largest declarations, largest first, are declared in one line each (name,
 * the first sentence of the description, `Record<string, unknown>` in, `unknown` out) until the text fits or no
 * tool is left to shorten; the text then says that `tools.tool_search({ query })` gives the full declarations, and
 * declares `tool_search` unless a tool has that name. The same tools and options always give the same bytes.
 */
export function declareTools(tools: readonly DeclarableTool[], options: DeclareToolsOptions = {}): ToolDeclarations {
  const entries = distinctByName(tools).map(toEntry);
  const byName = new Map(entries.map((entry) => [entry.name, entry.full]));
  const short = chooseShort(entries, options.budgetTokens);
  const full = entries.filter((entry) => !short.has(entry));
  const lines = [HEADER, ...full.map((entry) => entry.fullBlock)];
  if (short.size > 0) {
    lines.push(SHORT_NOTE);
    if (!byName.has("tool_search")) lines.push(TOOL_SEARCH);
    lines.push(...entries.filter((entry) => short.has(entry)).map((entry) => entry.shortBlock));
  }
  lines.push(FOOTER);
  const summarized = [...short].map((entry) => entry.name);
  return { text: lines.join("\n"), byName, summarized };
}

function distinctByName(tools: readonly DeclarableTool[]): DeclarableTool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
}

function toEntry(tool: DeclarableTool): Entry {
  const input = schemaToType(tool.inputSchema);
  // A result's fields go without their descriptions: they cost every turn and rarely change what a program does.
  const output = tool.outputSchema === undefined ? "string" : schemaToType(tool.outputSchema, { docs: false }).text;
  const name = propertyName(tool.name);
  const signature = `${name}(input${input.required ? "" : "?"}: ${input.text}): Promise<${output}>;`;
  // `?? ""`: a listing read from a server may leave the description out, whatever the type says.
  const description = tool.description ?? "";
  const comment = docComment(description, "");
  const full = comment === "" ? signature : `${comment}\n${signature}`;
  const summary = docComment(firstSentence(description), "");
  const shortLine = `${summary === "" ? "" : `${summary} `}${name}${SHORT_SIGNATURE}`;
  return { name: tool.name, full, fullBlock: indent(full), shortBlock: indent(shortLine) };
}

/**
 * The entries to declare in short, largest first: none without a budget or when everything fits. A tool whose one
 * line would not be shorter stays whole.
 */
function chooseShort(entries: readonly Entry[], budgetTokens: number | undefined): Set<Entry> {
  const short = new Set<Entry>();
  if (budgetTokens === undefined) return short;
  const limit = budgetTokens * CHARACTERS_PER_TOKEN;
  // The length `text` will have: the lines joined by one newline each.
  let length = HEADER.length + FOOTER.length + 1 + entries.reduce((sum, entry) => sum + entry.fullBlock.length + 1, 0);
  const bySize = [...entries].sort((a, b) => b.fullBlock.length - a.fullBlock.length);
  for (const entry of bySize) {
    if (length <= limit) break;
    if (entry.shortBlock.length >= entry.fullBlock.length) continue;
    if (short.size === 0) {
      length += SHORT_NOTE.length + 1;
      if (!entries.some(({ name }) => name === "tool_search")) length += TOOL_SEARCH.length + 1;
    }
    short.add(entry);
    length += entry.shortBlock.length - entry.fullBlock.length;
  }
  return short;
}

/** The first sentence of the first line of a description, cut to a readable length. */
function firstSentence(description: string): string {
  const line = description.trim().split(/\r\n|[\n\r\u2028\u2029]/)[0] ?? "";
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end + 1);
  return sentence.length > MAX_SUMMARY ? `${sentence.slice(0, MAX_SUMMARY - 3).trimEnd()}...` : sentence;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
