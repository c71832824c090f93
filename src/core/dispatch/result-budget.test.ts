// Result budgets: a result over its limit is saved whole to a file in the workspace, and the model gets a preview.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { builtScript } from "../../../test/e2e/helpers/build.js";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { createBuiltinTools } from "../../builtins/create-builtin-tools.js";
import { ToolDefinitionError } from "../errors.js";
import { defineTool } from "../register/define-tool.js";
import type { ContentBlock, ToolResult } from "../types.js";
import { DEFAULT_MAX_RESULT_CHARS } from "./result-budget.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function workspace(): string {
  const folder = mkdtempSync(join(tmpdir(), "toolwire-budget-"));
  folders.push(folder);
  return folder;
}

/** A tool `big` that returns the given result, whatever its input. */
function bigTool(
  result: ToolResult | string,
  options: { maxResultChars?: number; _meta?: Record<string, number> } = {},
) {
  return defineTool({
    name: "big",
    description: "Returns a large result",
    inputSchema: { type: "object" },
    ...options,
    execute: () => result,
  });
}

const numberedLines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

describe("a result within its budget", () => {
  it("reaches the model unchanged, and nothing is written", async () => {
    const root = workspace();
    const text = "x".repeat(DEFAULT_MAX_RESULT_CHARS);
    const session = sessionWith([bigTool(text)], { workspace: root });
    const block = await session.dispatch({ id: "call_1", name: "big", input: {} });
    expect(textOf(block)).toBe(text);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("a result over its budget", () => {
  it("is saved whole under .toolwire/results, and the model gets its head, its tail and the path", async () => {
    const root = workspace();
    const text = numberedLines(20_000);
    const session = sessionWith([bigTool(text)], { workspace: root });
    const outcome = await session.dispatchDetailed({ id: "call_1", name: "big", input: {} });
    const saved = join(root, ".toolwire", "results", "call_1.txt");
    expect(readFileSync(saved, "utf8")).toBe(text);
    const preview = textOf(outcome.block);
    expect(preview).toContain(`The result of big has ${text.length.toLocaleString("en-US")} characters of text`);
    expect(preview).toContain("20,000 lines");
    expect(preview).toContain(".toolwire/results/call_1.txt");
    expect(preview).toMatch(/offset \d+/);
    expect(preview).toContain("line 1\nline 2\n");
    expect(preview).toContain("line 19999\nline 20000");
    expect(preview).not.toContain("line 10000\n");
    expect(preview.length).toBeLessThan(DEFAULT_MAX_RESULT_CHARS);
    expect(outcome.block.is_error).toBeUndefined();
    expect(readFileSync(join(root, ".toolwire", "results", ".gitignore"), "utf8")).toBe("*\n");
  });

  it("keeps details and the blocks that are not text, and an error stays an error", async () => {
    const root = workspace();
    const image: ContentBlock = { type: "image", data: "aGk=", mimeType: "image/png" };
    const result: ToolResult = {
      content: [{ type: "text", text: "a".repeat(200) }, image],
      details: { rows: 3 },
      isError: true,
    };
    const session = sessionWith([bigTool(result, { maxResultChars: 100 })], { workspace: root });
    const outcome = await session.dispatchDetailed({ id: "c", name: "big", input: {} });
    expect(outcome.result.details).toEqual({ rows: 3 });
    expect(outcome.block.is_error).toBe(true);
    expect(outcome.block.content[1]).toEqual(image);
    expect(outcome.block.content).toHaveLength(2);
  });

  it("tells the model a path the built-in read opens, and reading on from the offset gives the next lines", async () => {
    const root = workspace();
    const text = numberedLines(10_000);
    const session = sessionWith([...createBuiltinTools({ root, sandbox: "off" }), bigTool(text)], { workspace: root });
    const preview = textOf(await session.dispatch({ id: "call_7", name: "big", input: {} }));
    const path = /read \(path "([^"]+)", offset (\d+)\)/.exec(preview);
    expect(path).not.toBeNull();
    const [, file, offset] = path as RegExpExecArray;
    const read = await session.dispatch({
      id: "r",
      name: "read",
      input: { path: file, offset: Number(offset), limit: 2 },
    });
    expect(read.is_error).toBeUndefined();
    const shownLast = Number(/line (\d+)\n\nIts last|line (\d+)\n\n…/.exec(preview)?.slice(1).find(Boolean));
    expect(textOf(read)).toContain(`line ${shownLast + 1}`);
  });

  it("takes the tool's own limit over the session's, and Infinity turns the budget off", async () => {
    const root = workspace();
    const text = "y".repeat(500);
    const strict = sessionWith([bigTool(text, { maxResultChars: 100 })], { workspace: root, maxResultChars: 10_000 });
    expect(textOf(await strict.dispatch({ id: "a", name: "big", input: {} }))).toContain("more than its limit of 100");
    const open = sessionWith([bigTool(text, { maxResultChars: Number.POSITIVE_INFINITY })], {
      workspace: root,
      maxResultChars: 10,
    });
    expect(textOf(await open.dispatch({ id: "b", name: "big", input: {} }))).toBe(text);
  });

  it("takes an MCP tool's _meta anthropic/maxResultSizeChars as its limit", async () => {
    const root = workspace();
    const session = sessionWith([bigTool("z".repeat(300), { _meta: { "anthropic/maxResultSizeChars": 200 } })], {
      workspace: root,
    });
    expect(textOf(await session.dispatch({ id: "m", name: "big", input: {} }))).toContain("more than its limit of 200");
  });

  it("previews a JSON array as whole items and says its shape", async () => {
    const root = workspace();
    const items = Array.from({ length: 5_000 }, (_, index) => ({ id: index, name: `item ${index}` }));
    const session = sessionWith([bigTool(JSON.stringify(items))], { workspace: root });
    const preview = textOf(await session.dispatch({ id: "j", name: "big", input: {} }));
    expect(preview).toContain("It is a JSON array of 5,000 items.");
    expect(preview).toContain('{"id":0,"name":"item 0"},\n{"id":1,"name":"item 1"}');
    expect(preview).toContain('{"id":4999,"name":"item 4999"}');
    expect(preview).not.toContain('"item 2500"');
  });

  it("describes a JSON object's keys", async () => {
    const root = workspace();
    const value = { rows: Array.from({ length: 20_000 }, (_, index) => index), title: "report", meta: { a: 1 } };
    const session = sessionWith([bigTool(JSON.stringify(value))], { workspace: root });
    const preview = textOf(await session.dispatch({ id: "o", name: "big", input: {} }));
    expect(preview).toContain('It is a JSON object with 3 keys: "rows" (20,000 items), "title" (text of 6 characters)');
  });

  it("saves to a new temporary folder when the session has no workspace, and names it whole", async () => {
    const session = sessionWith([bigTool("q".repeat(60_000))]);
    const preview = textOf(await session.dispatch({ id: "t", name: "big", input: {} }));
    const path = /saved whole to (\S+\.txt)/.exec(preview)?.[1] as string;
    expect(isAbsolute(path)).toBe(true);
    folders.push(join(path, ".."));
    expect(readFileSync(path, "utf8")).toHaveLength(60_000);
  });

  it("keeps a hostile tool call id inside the results folder, and a repeated id gets a new file", async () => {
    const root = workspace();
    const session = sessionWith([bigTool("h".repeat(60_000))], { workspace: root });
    await session.dispatch({ id: "../../escape", name: "big", input: {} });
    await session.dispatch({ id: "../../escape", name: "big", input: {} });
    expect(readdirSync(join(root, ".toolwire", "results")).sort()).toEqual([
      ".gitignore",
      "______escape-2.txt",
      "______escape.txt",
    ]);
    expect(readdirSync(root)).toEqual([".toolwire"]);
  });

  it("cuts the text and says so when the file cannot be written; the call still ends", async () => {
    const root = workspace();
    writeFileSync(join(root, ".toolwire"), "a file where the folder should be"); // mkdir fails, even as root
    const session = sessionWith([bigTool(numberedLines(20_000))], { workspace: root });
    const preview = textOf(await session.dispatch({ id: "w", name: "big", input: {} }));
    expect(preview).toContain("could not be saved to a file");
    expect(preview).toContain("line 1\n");
    expect(preview.length).toBeLessThan(DEFAULT_MAX_RESULT_CHARS);
  });

  it("keeps surrogate pairs whole across the write's chunks", async () => {
    const root = workspace();
    const text = `${"a".repeat((1 << 20) - 1)}😀${"b".repeat(100)}`;
    const session = sessionWith([bigTool(text)], { workspace: root });
    await session.dispatch({ id: "u", name: "big", input: {} });
    expect(readFileSync(join(root, ".toolwire", "results", "u.txt"), "utf8")).toBe(text);
  });

  it("saves any text exactly and keeps the preview within the limit plus its note", async () => {
    const root = workspace();
    let call = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 300 }),
        async (texts, limit) => {
          const id = `p${call++}`;
          const content = texts.map((text) => ({ type: "text" as const, text }));
          const session = sessionWith([bigTool({ content }, { maxResultChars: limit })], { workspace: root });
          const block = await session.dispatch({ id, name: "big", input: {} });
          const total = texts.reduce((sum, text) => sum + text.length, 0);
          if (total <= limit) {
            expect(block.content).toEqual(content);
            return;
          }
          expect(readFileSync(join(root, ".toolwire", "results", `${id}.txt`), "utf8")).toBe(texts.join("\n"));
          expect(block.content).toHaveLength(1);
          expect(textOf(block).length).toBeLessThan(limit + 600);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("the budget's options", () => {
  it("refuses a session limit that is not a positive number", () => {
    for (const bad of [0, -1, Number.NaN, "50000"]) {
      expect(() => sessionWith([], { maxResultChars: bad as number })).toThrow(/maxResultChars must be a positive/);
    }
  });

  it("refuses a tool limit that is not a positive number", () => {
    expect(() => bigTool("x", { maxResultChars: 0 })).toThrow(ToolDefinitionError);
  });
});

describe("a 100 MB result", () => {
  it("is saved without the process holding several copies of it", () => {
    const built = pathToFileURL(builtScript("dist/index.js")).href;
    const root = workspace();
    const script = `
      const { createAgentSession, createToolRegistry, defineTool } = await import(${JSON.stringify(built)});
      const text = "0123456789".repeat(10_000_000); // 100 MB, one byte per character
      text.indexOf("x"); // flattened now, so reading it later copies nothing
      const tool = defineTool({ name: "big", description: "d", inputSchema: { type: "object" }, execute: () => text });
      const session = createAgentSession({ registry: createToolRegistry({ custom: [tool] }), workspace: ${JSON.stringify(root)} });
      globalThis.gc();
      const before = process.resourceUsage().maxRSS * 1024;
      const block = await session.dispatch({ id: "huge", name: "big", input: {} });
      const after = process.resourceUsage().maxRSS * 1024;
      console.log(JSON.stringify({ grewBy: after - before, previewChars: block.content[0].text.length }));`;
    const output = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    const { grewBy, previewChars } = JSON.parse(output) as { grewBy: number; previewChars: number };
    expect(previewChars).toBeLessThan(5_000);
    // The file is written in 1 MB chunks: the peak grows by far less than one more copy (100 MB).
    expect(grewBy).toBeLessThan(50 * 1024 * 1024);
    expect(readFileSync(join(root, ".toolwire", "results", "huge.txt")).length).toBe(100_000_000);
  });
});
