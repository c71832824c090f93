// Result budgets (docs/dispatch.md): a result whose text passes its limit is saved whole to a file; the model gets a
// preview.
import { type FileHandle, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeThrown } from "../errors.js";
import type { AgentTool, ContentBlock, ToolResult } from "../types.js";
import { NotARealFolderError, openRealFolder, type RealFolder } from "./open-real-folder.js";
import { removeAtExit } from "./remove-at-exit.js";
import { forgetSpillFolder, releaseSpillBytes, reserveSpillBytes } from "./reserve-spill-bytes.js";
import { previewResult } from "./result-preview.js";

/** How many characters of text a result may hold before it is saved to a file and previewed: 50 000. */
export const DEFAULT_MAX_RESULT_CHARS = 50_000;

/** How many bytes the saved results of one folder (a workspace's, or a session's temporary one) may hold: 1 GiB. */
export const DEFAULT_MAX_SPILL_BYTES = 1_073_741_824;

/** A session's budget: its limit and where results over it are saved. */
export interface ResultBudget {
  readonly maxChars: number;
  /** The most bytes the results folder may hold (all sessions of the process on it together). */
  readonly maxSpillBytes: number;
  /** The workspace the files go under (`.toolwire/results/`), or `undefined` for a temporary folder. */
  readonly workspace: string | undefined;
  /** The temporary folder, once made (no workspace). */
  temp?: Promise<string>;
  /** Removes the temporary folder, once made. */
  removeTemp?: () => void;
  /** The session was closed: its temporary folder is gone and no new one is made. */
  closed: boolean;
  /** Whether the workspace's results folder was given its `.gitignore` (when it had none) in this session. */
  gitignoreChecked?: boolean;
}

/** The budget of a session; the limits are checked by the caller (positive numbers or `Infinity`). */
export function createResultBudget(
  maxChars: number | undefined,
  workspace: string | undefined,
  maxSpillBytes: number | undefined = undefined,
): ResultBudget {
  return {
    maxChars: maxChars ?? DEFAULT_MAX_RESULT_CHARS,
    maxSpillBytes: maxSpillBytes ?? DEFAULT_MAX_SPILL_BYTES,
    workspace,
    closed: false,
  };
}

/** Why a result was not saved, in words for the model. */
class SpillRefusedError extends Error {
  readonly code = "spill-refused";
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
 * The most characters of text `result` may hold for `tool`: the tool's own `maxResultChars`, else an MCP tool's
 * `_meta["anthropic/maxResultSizeChars"]`, else the session's.
 */
function limitOf(budget: ResultBudget, tool: AgentTool): number {
  return tool.maxResultChars ?? metaLimitOf(tool) ?? budget.maxChars;
}

/** Whether `result`'s text passes its limit (see `applyResultBudget`). */
export function isOverResultBudget(budget: ResultBudget, tool: AgentTool, result: ToolResult): boolean {
  return textLength(result.content) > limitOf(budget, tool);
}

/**
 * The result as the model gets it: unchanged when its text is within the tool's limit (`limitOf`), else the
 * result with its text saved whole to `<workspace>/.toolwire/results/<tool call id>.txt` and replaced by a
 * preview naming the file; other blocks and `details` are kept. The file is made only in a real folder (no link
 * below the workspace is followed) and only within the folder's quota (`maxSpillBytes`). Never rejects: when the
 * file cannot be made or written, the model gets the preview alone, and it says why.
 */
export async function applyResultBudget(
  budget: ResultBudget,
  tool: AgentTool,
  toolCallId: string,
  result: ToolResult,
): Promise<ToolResult> {
  const maxChars = limitOf(budget, tool);
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
    const path = await saveTexts(budget, toolCallId, texts);
    const offset = preview.jsonItems ? "" : `, offset ${preview.headEndLine + 1}`;
    const readOn = preview.jsonItems ? "Read it" : "Read on";
    where = `was saved whole to ${path}. ${readOn} with read (path ${JSON.stringify(path)}${offset}) or search it with grep.`;
  } catch (error) {
    where = `could not be saved to a file (${reasonOf(error)}), so only this preview of it is left`;
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

/** The names of a workspace's results folder under it. */
const RESULTS_NAMES = [".toolwire", "results"];

/**
 * Writes the texts, joined with `\n`, to a new file named after the call, in a real folder (see
 * `openRealFolder`) and within the folder's quota; returns the path to tell the model.
 */
async function saveTexts(budget: ResultBudget, toolCallId: string, texts: readonly string[]): Promise<string> {
  const bytes = byteLengthOf(texts);
  if (bytes > budget.maxSpillBytes) {
    throw new SpillRefusedError(
      `it has ${formatBytes(bytes)}, more than the whole quota of saved results, ${formatBytes(budget.maxSpillBytes)}`,
    );
  }
  const inWorkspace = budget.workspace !== undefined;
  const names = inWorkspace ? RESULTS_NAMES : [];
  const folder = await openRealFolder(budget.workspace ?? (await tempFolder(budget)), names);
  try {
    // Saved results are not the project's files: keep them out of git (once a session, or when the folder is new).
    if (inWorkspace && (folder.made || !budget.gitignoreChecked)) {
      budget.gitignoreChecked = true;
      await writeNewFile(folder, ".gitignore", "*\n").catch(() => {});
    }
    const reserved = await reserveSpillBytes(folder.realPath, bytes, budget.maxSpillBytes, folder.sizeOfFiles);
    if (!reserved) {
      const whose = inWorkspace ? "saved in this workspace" : "this session saved";
      throw new SpillRefusedError(
        `the results ${whose} have reached their quota of ${formatBytes(budget.maxSpillBytes)}`,
      );
    }
    let written = 0;
    try {
      const { name, handle } = await createNamedFile(folder, fileNameOf(toolCallId));
      try {
        written = await writeTexts(handle, texts);
      } catch (error) {
        await handle.close().catch(() => {});
        await folder.removeFile(name); // a part of a result is no use to the model, and would count for nothing
        written = 0;
        throw error;
      }
      await handle.close();
      return inWorkspace ? [...names, name].join("/") : join(folder.realPath, name);
    } finally {
      if (written < bytes) releaseSpillBytes(folder.realPath, bytes - written);
    }
  } finally {
    await folder.close();
  }
}

/** The session's temporary folder (no workspace), made on its first large result and removed when it closes. */
function tempFolder(budget: ResultBudget): Promise<string> {
  if (budget.closed) return Promise.reject(new SpillRefusedError("the session is closed"));
  budget.temp ??= (async () => {
    const made = await mkdtemp(join(tmpdir(), "toolwire-results-"));
    const removeNow = removeAtExit(made);
    const realPath = await realpath(made).catch((error: unknown) => {
      removeNow();
      throw error;
    });
    budget.removeTemp = () => {
      removeNow();
      forgetSpillFolder(realPath);
    };
    if (budget.closed) {
      budget.removeTemp(); // closed while it was made
      throw new SpillRefusedError("the session is closed");
    }
    return made;
  })();
  const folder = budget.temp;
  folder.catch(() => {
    if (budget.temp === folder) budget.temp = undefined; // try again on the next large result
  });
  return folder;
}

/**
 * Ends a budget with its session: its temporary folder (when it made one) is removed with every result saved
 * there, and no new one is made. A workspace's saved results stay.
 */
export function closeResultBudget(budget: ResultBudget): void {
  budget.closed = true;
  budget.removeTemp?.();
}

/** Creates a new file named `base.txt`, or `base-2.txt`, `base-3.txt`... when the name is taken. */
async function createNamedFile(folder: RealFolder, base: string) {
  for (let attempt = 1; ; attempt++) {
    const name = `${base}${attempt === 1 ? "" : `-${attempt}`}.txt`;
    try {
      return { name, handle: await folder.createFile(name, 0o600) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 1000) continue;
      throw error;
    }
  }
}

/** Creates the file `name` with `text` unless the name is taken (then it rejects with EEXIST). */
async function writeNewFile(folder: RealFolder, name: string, text: string): Promise<void> {
  const handle = await folder.createFile(name, 0o666);
  try {
    await handle.write(text);
  } finally {
    await handle.close();
  }
}

/** At most this many characters of text are turned into bytes at a time, so a 100 MB result is not copied whole. */
const WRITE_CHUNK_CHARS = 1 << 20;

/** Writes the texts, joined with `\n`, to an open file; returns the bytes written. */
async function writeTexts(handle: FileHandle, texts: readonly string[]): Promise<number> {
  let written = 0;
  // One buffer for every chunk (a UTF-16 unit takes at most 3 bytes of UTF-8): no garbage per chunk to pile up.
  const buffer = Buffer.allocUnsafe(WRITE_CHUNK_CHARS * 3);
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index] as string;
    if (index > 0) written += await writeAll(handle, NEWLINE, NEWLINE.length);
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + WRITE_CHUNK_CHARS, text.length);
      // Never split a surrogate pair between two chunks: each chunk is encoded as UTF-8 on its own.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      const bytes = buffer.write(text.slice(start, end), 0, "utf8");
      written += await writeAll(handle, buffer, bytes);
      start = end;
    }
  }
  return written;
}

const NEWLINE = Buffer.from("\n");

/** Writes the first `length` bytes of `buffer`, however many calls it takes; returns `length`. */
async function writeAll(handle: FileHandle, buffer: Buffer, length: number): Promise<number> {
  for (let offset = 0; offset < length; ) offset += (await handle.write(buffer, offset, length - offset)).bytesWritten;
  return length;
}

/** The bytes of the texts joined with `\n`, as UTF-8. */
function byteLengthOf(texts: readonly string[]): number {
  let bytes = Math.max(0, texts.length - 1);
  for (const text of texts) bytes += Buffer.byteLength(text, "utf8");
  return bytes;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A tool call id as a file name: letters, digits, `_` and `-` only, at most 100 characters. */
function fileNameOf(toolCallId: string): string {
  const name = toolCallId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return name === "" ? "result" : name;
}

/**
 * Why a result could not be saved, for the model: the refusal's own words, or a file-system error's code and
 * description without its path (which names nothing outside the folder, but says nothing useful either).
 */
function reasonOf(error: unknown): string {
  if (error instanceof SpillRefusedError) return error.message;
  if (error instanceof NotARealFolderError) {
    return `${error.message}; results are saved only in a real folder, never through a link`;
  }
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  const message = describeThrown(error);
  if (typeof code !== "string" || typeof syscall !== "string") return message;
  const at = message.indexOf(`, ${syscall}`);
  return at === -1 ? message : message.slice(0, at);
}

const BYTE_UNITS = [
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024],
] as const;

/** A number of bytes in words: `1 GiB`, `512 KiB`, `1,000 bytes`. */
function formatBytes(bytes: number): string {
  for (const [unit, size] of BYTE_UNITS) {
    if (bytes >= size && bytes % size === 0) return `${(bytes / size).toLocaleString("en-US")} ${unit}`;
  }
  return `${bytes.toLocaleString("en-US")} bytes`;
}
