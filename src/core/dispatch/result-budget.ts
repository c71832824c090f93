// Result budgets (SPEC 19): a result whose text passes its limit is saved whole to a file; the model gets a preview.
import { mkdir, mkdtemp, open, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { describeThrown } from "../errors.js";
import type { AgentTool, ContentBlock, ToolResult } from "../types.js";
import { previewResult } from "./result-preview.js";

/** How many characters of text a result may hold before it is saved to a file and previewed: 50 000. */
export const DEFAULT_MAX_RESULT_CHARS = 50_000;

/** Where the saved results of a workspace go, relative to it. */
export const RESULTS_FOLDER = join(".toolwire", "results");

/** A session's budget: its limit and where results over it are saved. */
export interface ResultBudget {
  readonly maxChars: number;
  /** The workspace the files go under (`.toolwire/results/`), or `undefined` for a temporary folder. */
  readonly workspace: string | undefined;
  /** The folder, once made. */
  folder?: Promise<string>;
}

/** The budget of a session; `maxChars` is checked by the caller (a positive number or `Infinity`). */
export function createResultBudget(maxChars: number | undefined, workspace: string | undefined): ResultBudget {
  return { maxChars: maxChars ?? DEFAULT_MAX_RESULT_CHARS, workspace };
}

/** The text a block carries, as the budget counts it: a text block's, or an embedded text resource's. */
function textOf(block: ContentBlock): string | undefined {
  if (block.type === "text") return block.text;
  return block.type === "resource" && typeof block.resource.text === "string" ? block.resource.text : undefined;
}

/** The characters of text in a result. */
function textLength(content: readonly ContentBlock[]): number {
  let chars = 0;
  for (const block of content) chars += textOf(block)?.length ?? 0;
  return chars;
}

/**
 * The result as the model gets it: unchanged when its text is within the tool's limit (the tool's own
 * `maxResultChars`, else an MCP tool's `_meta["anthropic/maxResultSizeChars"]`, else the session's), else a
 * promise of the result with its text saved whole to `<workspace>/.toolwire/results/<tool call id>.txt` and
 * replaced by a preview naming the file; other blocks and `details` are kept. Never rejects: when the file cannot be written, the text is cut and the preview says why.
 */
export function applyResultBudget(
  budget: ResultBudget,
  tool: AgentTool,
  toolCallId: string,
  result: ToolResult,
): ToolResult | Promise<ToolResult> {
  const maxChars = tool.maxResultChars ?? metaLimitOf(tool) ?? budget.maxChars;
  const chars = textLength(result.content);
  if (chars <= maxChars) return result;
  return spill(budget, tool.descriptor.name, toolCallId, result, chars, maxChars);
}

/** An MCP tool's own limit, `_meta["anthropic/maxResultSizeChars"]`, when it is a positive number. */
function metaLimitOf(tool: AgentTool): number | undefined {
  const limit = tool.descriptor._meta?.["anthropic/maxResultSizeChars"];
  return typeof limit === "number" && limit > 0 ? limit : undefined;
}

async function spill(
  budget: ResultBudget,
  toolName: string,
  toolCallId: string,
  result: ToolResult,
  chars: number,
  maxChars: number,
): Promise<ToolResult> {
  const texts: string[] = [];
  const kept: ContentBlock[] = [];
  for (const block of result.content) {
    const text = textOf(block);
    if (text === undefined) kept.push(block);
    else texts.push(text);
  }
  const preview = previewResult(texts, maxChars);
  let where: string;
  try {
    const path = shownPath(budget, await writeTexts(budget, toolCallId, texts));
    const offset = preview.jsonItems ? "" : `, offset ${preview.headEndLine + 1}`;
    const readOn = preview.jsonItems ? "Read it" : "Read on";
    where = `was saved whole to ${path}. ${readOn} with read (path ${JSON.stringify(path)}${offset}) or search it with grep.`;
  } catch (error) {
    where = `could not be saved to a file (${describeThrown(error)}), so only this preview of it is left`;
  }
  const count = chars.toLocaleString("en-US");
  const lines = preview.totalLines.toLocaleString("en-US");
  const intro =
    `The result of ${toolName} has ${count} characters of text (${lines} lines), more than its limit of ` +
    `${maxChars.toLocaleString("en-US")}, so it ${where}${preview.shape === "" ? "" : ` ${preview.shape}`}`;
  const shown = preview.jsonItems ? "items" : "lines";
  const parts = [intro, `Its first ${shown}:`, preview.head];
  if (preview.tail !== "") parts.push(`… Its last ${shown}:`, preview.tail);
  const text: ContentBlock = { type: "text", text: parts.join("\n\n") };
  const budgeted: ToolResult = { content: [text, ...kept] };
  if (result.details !== undefined) budgeted.details = result.details;
  if (result.isError === true) budgeted.isError = true;
  return budgeted;
}

/** The results folder, made once per session: the workspace's `.toolwire/results`, or a new temporary folder. */
function resultsFolder(budget: ResultBudget): Promise<string> {
  budget.folder ??= (async () => {
    if (budget.workspace === undefined) return mkdtemp(join(tmpdir(), "toolwire-results-"));
    const folder = join(budget.workspace, RESULTS_FOLDER);
    await mkdir(folder, { recursive: true });
    // Saved results are not the project's files: keep them out of git.
    await writeFile(join(folder, ".gitignore"), "*\n", { flag: "wx" }).catch(() => {});
    return folder;
  })();
  const folder = budget.folder;
  folder.catch(() => {
    if (budget.folder === folder) budget.folder = undefined; // try again on the next large result
  });
  return folder;
}

/** At most this many characters of text are turned into bytes at a time, so a 100 MB result is not copied whole. */
const WRITE_CHUNK_CHARS = 1 << 20;

/** Writes the texts, joined with `\n`, to a new file named after the call; returns its path. */
async function writeTexts(budget: ResultBudget, toolCallId: string, texts: readonly string[]): Promise<string> {
  const folder = await resultsFolder(budget);
  const base = fileNameOf(toolCallId);
  for (let attempt = 1; ; attempt++) {
    const path = join(folder, `${base}${attempt === 1 ? "" : `-${attempt}`}.txt`);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 1000) continue;
      throw error;
    }
    try {
      // One buffer for every chunk (a UTF-16 unit takes at most 3 bytes of UTF-8): no garbage per chunk to pile up.
      const buffer = Buffer.allocUnsafe(WRITE_CHUNK_CHARS * 3);
      for (let index = 0; index < texts.length; index++) {
        const text = texts[index] as string;
        if (index > 0) await handle.write("\n");
        for (let start = 0; start < text.length; ) {
          let end = Math.min(start + WRITE_CHUNK_CHARS, text.length);
          // Never split a surrogate pair between two chunks: each chunk is encoded as UTF-8 on its own.
          if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
          const bytes = buffer.write(text.slice(start, end), 0, "utf8");
          await handle.write(buffer, 0, bytes);
          start = end;
        }
      }
    } finally {
      await handle.close();
    }
    return path;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A tool call id as a file name: letters, digits, `_` and `-` only, at most 100 characters. */
function fileNameOf(toolCallId: string): string {
  const name = toolCallId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return name === "" ? "result" : name;
}

/** The path as the model is told it: relative to the workspace (where `read` takes it), else absolute. */
function shownPath(budget: ResultBudget, path: string): string {
  if (budget.workspace === undefined) return path;
  const inside = relative(budget.workspace, path);
  return inside.startsWith("..") || isAbsolute(inside) ? path : inside.split(sep).join("/");
}
