import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";
import type { EditDetails } from "./edit.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

const SOURCE = ["function greet(name) {", "  return 'hello ' + name;", "}", "", "greet('a');", "greet('b');", ""].join(
  "\n",
);
const content = (path: string) => readFile(join(ws.root, path), "utf8");

describe("edit", () => {
  it("replaces a unique exact match and shows a short diff", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    const result = await ws.ok("edit", { path: "g.js", oldText: "'hello '", newText: "'hi '" });
    expect(await content("g.js")).toBe(SOURCE.replace("'hello '", "'hi '"));
    const text = textOf(result);
    expect(text).toContain("Edited g.js: replaced 1 occurrence (line 2).");
    expect(text).toContain("-  return 'hello ' + name;");
    expect(text).toContain("+  return 'hi ' + name;");
    expect(text).toContain("@@ -1,5 +1,5 @@");
    expect(result.details).toMatchObject({ path: "g.js", replacements: 1, lines: [2] });
  });

  it("treats $ patterns in newText literally", async () => {
    ws = await makeWorkspace({ "a.txt": "price\n" });
    await ws.ok("edit", { path: "a.txt", oldText: "price", newText: "$& $1 $$" });
    expect(await content("a.txt")).toBe("$& $1 $$\n");
  });

  it("says precisely when the match is missing, and changes nothing", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    const error = await ws.fail("edit", { path: "g.js", oldText: "goodbye", newText: "x" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe(
      "oldText was not found in g.js. Nothing was changed. Read the file first and copy oldText exactly from it.",
    );
    expect(await content("g.js")).toBe(SOURCE);
  });

  it("points at a near match that differs only in whitespace", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    const error = await ws.fail("edit", {
      path: "g.js",
      oldText: "function greet(name) {\n    return 'hello ' + name;",
      newText: "x",
    });
    expect(error.message).toContain("A similar text is at line 1, differing only in whitespace or indentation");
  });

  it("notices read's line-number prefixes in oldText", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    const error = await ws.fail("edit", { path: "g.js", oldText: "     5\tgreet('a');", newText: "x" });
    expect(error.message).toContain("line-number prefixes");
  });

  it("refuses a match that is not unique, with the count and the lines", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    const error = await ws.fail("edit", { path: "g.js", oldText: "greet(", newText: "hail(" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe(
      "oldText occurs 3 times in g.js (starting at lines 1, 5, 6). Nothing was changed. Include more surrounding lines in oldText so that it matches exactly once, or set replaceAll to true to replace every occurrence.",
    );
    expect(await content("g.js")).toBe(SOURCE);
  });

  it("replaces every occurrence with replaceAll", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    const result = await ws.ok("edit", { path: "g.js", oldText: "greet(", newText: "hail(", replaceAll: true });
    expect(await content("g.js")).toBe(SOURCE.replaceAll("greet(", "hail("));
    expect(textOf(result)).toContain("replaced 3 occurrences (lines 1, 5, 6)");
  });

  it("refuses a file changed since it was read, and accepts it once read again", async () => {
    ws = await makeWorkspace({ "g.js": SOURCE });
    await ws.ok("read", { path: "g.js" });
    await writeFile(join(ws.root, "g.js"), `${SOURCE}// changed by someone else\n`);
    const error = await ws.fail("edit", { path: "g.js", oldText: "'hello '", newText: "'hi '" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe(
      "g.js changed since you last read it (something other than these tools modified it). Nothing was changed. Read it again with read, then retry the edit with text from its current content.",
    );
    expect(await content("g.js")).toContain("changed by someone else");
    expect(await content("g.js")).toContain("'hello '");
    await ws.ok("read", { path: "g.js", offset: 2, limit: 1 });
    await ws.ok("edit", { path: "g.js", oldText: "'hello '", newText: "'hi '" });
    expect(await content("g.js")).toContain("'hi '");
  });

  it("allows consecutive edits and edits after its own write without reading again", async () => {
    ws = await makeWorkspace();
    await ws.ok("write", { path: "n.txt", content: "one two three\n" });
    await ws.ok("edit", { path: "n.txt", oldText: "one", newText: "1" });
    await ws.ok("edit", { path: "n.txt", oldText: "two", newText: "2" });
    expect(await content("n.txt")).toBe("1 2 three\n");
  });

  it("allows editing a file never read (the exact match protects it)", async () => {
    ws = await makeWorkspace({ "n.txt": "a b\n" });
    await ws.ok("edit", { path: "n.txt", oldText: "a", newText: "z" });
    expect(await content("n.txt")).toBe("z b\n");
  });

  it("keeps read state per tool set: another set's reads do not count", async () => {
    ws = await makeWorkspace({ "n.txt": "a b\n" });
    const other = ws.reopen();
    await other.ok("read", { path: "n.txt" });
    await ws.ok("read", { path: "n.txt" });
    await other.ok("edit", { path: "n.txt", oldText: "a", newText: "z" });
    expect((await ws.fail("edit", { path: "n.txt", oldText: "b", newText: "y" })).message).toContain(
      "changed since you last read it",
    );
  });

  it("keeps CRLF line endings and a BOM", async () => {
    ws = await makeWorkspace({ "w.txt": "\uFEFFone\r\ntwo\r\nthree\r\n" });
    await ws.ok("edit", { path: "w.txt", oldText: "one\ntwo", newText: "uno\ndos" });
    expect(await content("w.txt")).toBe("\uFEFFuno\r\ndos\r\nthree\r\n");
  });

  it("refuses a binary file, a folder, a missing file and an outside path", async () => {
    ws = await makeWorkspace({ "b.bin": Buffer.from([1, 0, 2]), "dir/x": "x" });
    expect((await ws.fail("edit", { path: "b.bin", oldText: "a", newText: "b" })).message).toContain("binary file");
    expect((await ws.fail("edit", { path: "dir", oldText: "a", newText: "b" })).code).toBe("invalid-input");
    expect((await ws.fail("edit", { path: "none.txt", oldText: "a", newText: "b" })).message).toContain(
      "File not found: none.txt",
    );
    expect((await ws.fail("edit", { path: "../x", oldText: "a", newText: "b" })).message).toContain(
      "outside the workspace",
    );
  });

  it("refuses oldText equal to newText", async () => {
    ws = await makeWorkspace({ "n.txt": "a\n" });
    const error = await ws.fail("edit", { path: "n.txt", oldText: "a", newText: "a" });
    expect(error.code).toBe("invalid-input");
  });

  it("leaves no temp file behind", async () => {
    ws = await makeWorkspace({ "n.txt": "a\n" });
    await ws.ok("edit", { path: "n.txt", oldText: "a", newText: "b" });
    expect(await readdir(ws.root)).toEqual(["n.txt"]);
  });

  it("cuts a long diff and says so", async () => {
    const many = Array.from({ length: 400 }, (_, index) => `row ${index}`).join("\n");
    ws = await makeWorkspace({ "m.txt": `${many}\n` });
    const result = await ws.ok("edit", { path: "m.txt", oldText: many, newText: many.replaceAll("row", "ROW") });
    expect(textOf(result)).toContain("[Diff cut at 120 of");
    expect((result.details as { diff: string }).diff.split("\n").length).toBeGreaterThan(800);
  });

  it("refuses an empty oldText even when called without schema validation", async () => {
    ws = await makeWorkspace({ "n.txt": "a\n" });
    const error = await ws.fail("edit", { path: "n.txt", oldText: "", newText: "b" });
    expect(error.code).toBe("invalid-input");
    expect(await content("n.txt")).toBe("a\n");
  });

  it("refuses a file over 10 MB, pointing to bash", async () => {
    ws = await makeWorkspace({ "big.txt": "a".repeat(10 * 1024 * 1024 + 1) });
    const error = await ws.fail("edit", { path: "big.txt", oldText: "a", newText: "b" });
    expect(error.message).toBe(
      "big.txt is 10.0 MB, over the 10.0 MB limit for edit. Change it with bash (for example sed) instead.",
    );
  });

  it("replaces 20,000 occurrences, one on every line, in bounded time with the diff cut to 50 KB", async () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => `row ${index}`).join("\n");
    ws = await makeWorkspace({ "m.txt": `${rows}\n` });
    const started = Date.now();
    const result = await ws.ok("edit", { path: "m.txt", oldText: "row", newText: "ROW", replaceAll: true });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await content("m.txt")).toBe(`${rows.replaceAll("row", "ROW")}\n`);
    const text = textOf(result);
    expect(text).toContain("replaced 20000 occurrences (lines 1, 2, 3,");
    expect(text).toContain(", and 19980 more).");
    expect(text).toContain("[The change is too large to diff line by line (20000 old lines, 20000 new lines");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
    const details = result.details as EditDetails;
    expect(Buffer.byteLength(details.diff)).toBeLessThanOrEqual(50 * 1024);
    expect(details).toMatchObject({ replacements: 20_000, diffCut: true, diffMinimal: false });
    expect(details.lines).toHaveLength(2000);
    expect(details.diff.split("\n").slice(0, 3)).toEqual(["@@ -1,20000 +1,20000 @@", "-row 0", "-row 1"]);
  });

  it("rewrites a 20,000-line file in one edit in bounded time", async () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => `line ${index} ${"·".repeat(index % 7)}`).join("\n");
    ws = await makeWorkspace({ "w.txt": `${rows}\n` });
    const started = Date.now();
    const result = await ws.ok("edit", { path: "w.txt", oldText: rows, newText: rows.toUpperCase() });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await content("w.txt")).toBe(`${rows.toUpperCase()}\n`);
    expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(50 * 1024);
    expect(Buffer.byteLength((result.details as EditDetails).diff)).toBeLessThanOrEqual(50 * 1024);
  });

  it("fails fast on a missing 200 KB oldText, even one that repeats the file's lines", async () => {
    const repeated = "    value = value + 1;\n".repeat(20_000);
    ws = await makeWorkspace({ "r.txt": repeated, "flat.txt": "a".repeat(2 * 1024 * 1024) });
    const started = Date.now();
    const missing = [
      { path: "r.txt", oldText: "q".repeat(200 * 1024) },
      // Every line is in the file, indented differently: the near-match search has a candidate on every line.
      { path: "r.txt", oldText: `${"value = value + 1;\n".repeat(9000)}value = value + 2;\n` },
      // indexOf alone takes the text's length times the needle's on this one.
      { path: "flat.txt", oldText: `${"a".repeat(100_000)}b${"a".repeat(100_000)}` },
    ];
    for (const input of missing) {
      const error = await ws.fail("edit", { ...input, newText: "x" });
      expect(error.message).toContain("oldText was not found in");
    }
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("still points at a near match in a large file", async () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `  item(${index % 50});`);
    lines[15_000] = "  special();";
    ws = await makeWorkspace({ "n.txt": `${lines.join("\n")}\n` });
    const error = await ws.fail("edit", {
      path: "n.txt",
      oldText: "item(49);\nspecial();\n    item(1);",
      newText: "x",
    });
    expect(error.message).toContain("A similar text is at line 15000, differing only in whitespace");
  });
});
