import { createHook } from "node:async_hooks";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";
import type { JsonObject } from "../core/types.js";
import type { GrepDetails } from "./grep.js";
import { HAS_PROC_FD } from "./open-inside.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

describe("grep", () => {
  it("prints each match as <path>:<line>: <text>, paths relative to the root", async () => {
    ws = await makeWorkspace({
      "src/a.ts": "const x = 1;\n// TODO one\n",
      "src/b/c.ts": "// TODO two\nend\n",
      "README.md": "no\n",
    });
    const result = await ws.ok("grep", { pattern: "TODO \\w+" });
    expect(textOf(result)).toBe("src/a.ts:2: // TODO one\nsrc/b/c.ts:1: // TODO two");
    expect(result.details).toMatchObject({ matches: 2, filesWithMatches: 2, filesSearched: 3, limitReached: false });
  });

  it("respects .gitignore files, nested ones and negations, and skips .git", async () => {
    ws = await makeWorkspace({
      ".gitignore": "node_modules/\n*.log\n!keep.log\n",
      "node_modules/pkg/index.js": "needle\n",
      "debug.log": "needle\n",
      "keep.log": "needle\n",
      "src/.gitignore": "generated.ts\n",
      "src/generated.ts": "needle\n",
      "src/real.ts": "needle\n",
      ".git/config": "needle\n",
    });
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toBe("keep.log:1: needle\nsrc/real.ts:1: needle");
  });

  it("applies the root .gitignore when searching a subfolder", async () => {
    ws = await makeWorkspace({ ".gitignore": "dist\n", "pkg/dist/out.js": "needle\n", "pkg/src/in.js": "needle\n" });
    expect(textOf(await ws.ok("grep", { pattern: "needle", path: "pkg" }))).toBe("pkg/src/in.js:1: needle");
  });

  it("searches an ignored folder when asked for it by name", async () => {
    ws = await makeWorkspace({ ".gitignore": "vendor/\n", "vendor/lib.js": "needle\n" });
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toContain("No matches");
    expect(textOf(await ws.ok("grep", { pattern: "needle", path: "vendor" }))).toBe("vendor/lib.js:1: needle");
  });

  it("filters files by a glob without / (names at any depth) and with / (relative paths)", async () => {
    ws = await makeWorkspace({ "a.ts": "hit\n", "a.js": "hit\n", "src/deep/b.ts": "hit\n", "src/c.md": "hit\n" });
    expect(textOf(await ws.ok("grep", { pattern: "hit", glob: "*.ts" }))).toBe("a.ts:1: hit\nsrc/deep/b.ts:1: hit");
    expect(textOf(await ws.ok("grep", { pattern: "hit", glob: "src/**/*.ts" }))).toBe("src/deep/b.ts:1: hit");
    expect(textOf(await ws.ok("grep", { pattern: "hit", glob: "*.{js,md}" }))).toBe("a.js:1: hit\nsrc/c.md:1: hit");
    expect(textOf(await ws.ok("grep", { pattern: "hit", path: "src", glob: "deep/*.ts" }))).toBe(
      "src/deep/b.ts:1: hit",
    );
  });

  it("shows context lines with - separators and splits groups with --", async () => {
    const lines = ["l1", "l2", "match A", "l4", "l5", "l6", "l7", "match B", "match C", "l10"].join("\n");
    ws = await makeWorkspace({ "f.txt": `${lines}\n` });
    expect(textOf(await ws.ok("grep", { pattern: "match", context: 1 }))).toBe(
      [
        "f.txt-2- l2",
        "f.txt:3: match A",
        "f.txt-4- l4",
        "--",
        "f.txt-7- l7",
        "f.txt:8: match B",
        "f.txt:9: match C",
        "f.txt-10- l10",
      ].join("\n"),
    );
  });

  it("merges overlapping context without repeating lines", async () => {
    ws = await makeWorkspace({ "f.txt": "a\nX\nb\nX\nc\n", "g.txt": "X\n" });
    expect(textOf(await ws.ok("grep", { pattern: "X", context: 2 }))).toBe(
      ["f.txt-1- a", "f.txt:2: X", "f.txt-3- b", "f.txt:4: X", "f.txt-5- c", "--", "g.txt:1: X"].join("\n"),
    );
  });

  it("supports ignoreCase and literal", async () => {
    ws = await makeWorkspace({ "f.txt": "a.b(c)\nAXB(C)\n" });
    expect(textOf(await ws.ok("grep", { pattern: "a.b(c)", literal: true }))).toBe("f.txt:1: a.b(c)");
    expect(textOf(await ws.ok("grep", { pattern: "axb", ignoreCase: true }))).toBe("f.txt:2: AXB(C)");
  });

  it("refuses an invalid regular expression with a hint", async () => {
    ws = await makeWorkspace();
    const error = await ws.fail("grep", { pattern: "foo(" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain('Invalid regular expression "foo("');
    expect(error.message).toContain("set literal to true");
  });

  it("stops at the limit and says so", async () => {
    ws = await makeWorkspace({ "f.txt": `${"x\n".repeat(50)}`, "g.txt": "x\n" });
    const result = await ws.ok("grep", { pattern: "x", limit: 5 });
    expect(textOf(result).split("\n").slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((n) => `f.txt:${n}: x`));
    expect(textOf(result)).toContain("[Stopped at 5 matches (the limit).");
    expect((result.details as GrepDetails).limitReached).toBe(true);
  });

  it("cuts the output at 50 KB with a note", async () => {
    ws = await makeWorkspace({ "wide.txt": `${`match ${"w".repeat(400)}\n`.repeat(300)}` });
    const text = textOf(await ws.ok("grep", { pattern: "match", limit: 2000 }));
    expect(text).toContain("(50 KB limit). Narrow the pattern, path or glob");
    expect(Buffer.byteLength(text)).toBeLessThan(51 * 1024);
  });

  it("skips binary files and counts them", async () => {
    ws = await makeWorkspace({ "bin.dat": Buffer.from("needle\0needle"), "t.txt": "needle\n" });
    const result = await ws.ok("grep", { pattern: "needle" });
    expect(textOf(result)).toBe("t.txt:1: needle\n\n[Skipped: 1 binary file.]");
  });

  it("never follows a link out of the root while walking", async () => {
    ws = await makeWorkspace({ "in.txt": "needle inside\n" });
    await writeFile(join(ws.outside, "secret.txt"), "needle TOP-SECRET\n");
    await symlink(ws.outside, join(ws.root, "outdir"));
    await symlink(join(ws.outside, "secret.txt"), join(ws.root, "outfile.txt"));
    await symlink("in.txt", join(ws.root, "alias.txt"));
    const result = await ws.ok("grep", { pattern: "needle" });
    expect(textOf(result)).toBe("alias.txt:1: needle inside\nin.txt:1: needle inside");
    expect((result.details as GrepDetails).walk?.skippedLinks).toBe(2);
  });

  it("searches one file when path is a file", async () => {
    ws = await makeWorkspace({ "a.txt": "x\ny\nx\n", "b.txt": "x\n" });
    expect(textOf(await ws.ok("grep", { pattern: "x", path: "a.txt" }))).toBe("a.txt:1: x\na.txt:3: x");
  });

  it("says when nothing matches, counting what it searched", async () => {
    ws = await makeWorkspace({ "a.txt": "x\n", ".gitignore": "b.txt\n", "b.txt": "zzz\n" });
    expect(textOf(await ws.ok("grep", { pattern: "zzz" }))).toBe(
      'No matches for "zzz" in . (2 files searched). Skipped: 1 paths ignored by .gitignore.',
    );
  });

  it("refuses a path outside the root and a missing path", async () => {
    ws = await makeWorkspace();
    expect((await ws.fail("grep", { pattern: "x", path: "/etc" })).message).toContain("outside the workspace");
    expect((await ws.fail("grep", { pattern: "x", path: "nope" })).message).toContain("Not found: nope");
  });

  it("understands Unicode property escapes, and patterns valid only without the u flag", async () => {
    ws = await makeWorkspace({ "f.txt": "plain\ncafé ünïcode\na-b\n" });
    expect(textOf(await ws.ok("grep", { pattern: "\\p{L}+\\s\\p{L}*ü" }))).toBe("f.txt:2: café ünïcode");
    expect(textOf(await ws.ok("grep", { pattern: "a\\-b" }))).toBe("f.txt:3: a-b");
  });

  it("skips files over 10 MB and counts them", async () => {
    ws = await makeWorkspace({ "big.txt": `needle\n${"a".repeat(10 * 1024 * 1024)}`, "small.txt": "needle\n" });
    const result = await ws.ok("grep", { pattern: "needle" });
    expect(textOf(result)).toBe("small.txt:1: needle\n\n[Skipped: 1 file over 10.0 MB.]");
  });

  it("runs a pattern that backtracks catastrophically in JavaScript in linear time", async () => {
    ws = await makeWorkspace({ "long.txt": `${"a".repeat(30_000)}!\nshort aaa\n` });
    const started = Date.now();
    const result = await ws.ok("grep", { pattern: "(a+)+$" });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(textOf(result)).toBe("long.txt:2: short aaa");
  });

  it("keeps the JavaScript syntax RE2 shares: classes, escapes, lazy quantifiers, named groups, lookbehind", async () => {
    ws = await makeWorkspace({ "f.txt": "price $42\nfoo_bar foo\nA1 b22\n<a><b>\nxy zy\n" });
    const lines = async (pattern: string, ignoreCase = false) =>
      textOf(await ws.ok("grep", { pattern, ignoreCase }))
        .split("\n")
        .map((line) => line.split(":")[1]);
    expect(await lines("(?<=\\$)\\d+")).toEqual(["1"]);
    expect(await lines("(?<!x)y")).toEqual(["5"]);
    expect(await lines("\\bfoo\\b")).toEqual(["2"]);
    expect(await lines("(?<word>[a-z])\\d{2}$")).toEqual(["3"]);
    expect(await lines("^<.*?>")).toEqual(["4"]);
    expect(await lines("\\u0041\\d|^x\\w\\s")).toEqual(["3", "5"]);
    expect(await lines("[^]b\\d", true)).toEqual(["3"]);
    expect(await lines("PRICE\\s\\$", true)).toEqual(["1"]);
  });

  it("refuses backreferences and lookahead with a typed error that names an alternative", async () => {
    ws = await makeWorkspace({ "f.txt": "aa\n" });
    for (const [pattern, feature] of [
      ["(a)\\1", "the backreference \\1"],
      ["(?<x>a)\\k<x>", "the named backreference"],
      ["a(?=b)", "lookahead (?=...)"],
      ["a(?!b)", "negative lookahead (?!...)"],
    ] as const) {
      const error = await ws.fail("grep", { pattern });
      expect(error.code).toBe("invalid-input");
      expect(error.message).toContain(`Unsupported regular expression ${JSON.stringify(pattern)}: ${feature}`);
      expect(error.message).toContain("is not supported (patterns run in linear time");
      expect(error.message).toContain("use bash with grep -P");
    }
    // Escaped, or inside a class, the same characters are plain text.
    expect(textOf(await ws.ok("grep", { pattern: "[(?=]|\\\\1|a" }))).toBe("f.txt:1: aa");
  });

  it("explains RE2's own limits, such as a repeat count over 1000", async () => {
    ws = await makeWorkspace();
    const error = await ws.fail("grep", { pattern: "a{2000}" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("invalid repeat count: `{2000}` (a count, or nested counts multiplied, may be");
  });

  it("refuses a pattern whose compiled program is too large to match a long line quickly", async () => {
    ws = await makeWorkspace();
    const error = await ws.fail("grep", { pattern: "(\\w+\\s*){1000}" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("the pattern is too large to match quickly (6002 steps compiled, at most 2000)");
  });

  it("matches a 9 MB single line in bounded time and cuts the printed line", async () => {
    ws = await makeWorkspace({ "one.txt": `${"x".repeat(9 * 1024 * 1024)} needle\n` });
    const started = Date.now();
    const text = textOf(await ws.ok("grep", { pattern: "x+\\s+needle$" }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(text).toBe(`one.txt:1: ${"x".repeat(500)}... [line cut at 500 characters]`);
  });

  it("gives the event loop turns inside a large file, so an abort ends the search", async () => {
    const line = `${"word ".repeat(12)}end\n`;
    ws = await makeWorkspace({ "big.txt": line.repeat(Math.floor((9 * 1024 * 1024) / line.length)) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const outcome = await ws.call(
      "grep",
      { pattern: "(?<=word )\\w+x$", path: "big.txt" },
      { signal: controller.signal },
    );
    expect(outcome.kind === "error" && outcome.error.code).toBe("aborted");
  });

  it("filters by a glob in linear time, extglobs included, and refuses the negated extglob", async () => {
    ws = await makeWorkspace({ [`${"a".repeat(200)}.txt`]: "hit\n", "ab.md": "hit\n" });
    expect(textOf(await ws.ok("grep", { pattern: "hit", glob: "+(*)b.md" }))).toBe("ab.md:1: hit");
    const error = await ws.fail("grep", { pattern: "hit", glob: "!(*.md)" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("the negated extglob !(...) is not supported");
  });
});

describe("grep's cost per file", () => {
  it.runIf(HAS_PROC_FD)("reads walked files without an asynchronous file-system request per file", async () => {
    const files: Record<string, string> = { "deep/inside/hit.txt": "x\nneedle\n" };
    for (let index = 0; index < 300; index++) files[`src/f${index}.ts`] = `const value${index} = ${index};\n`;
    ws = await makeWorkspace(files);
    let requests = 0;
    // Each request to Node's file thread pool (a callback or a promise) starts one of these resources.
    const hook = createHook({
      init(_id, type) {
        if (type.startsWith("FSREQ") || type.startsWith("FILEHANDLE")) requests++;
      },
    }).enable();
    let text: string;
    try {
      text = textOf(await ws.ok("grep", { pattern: "needle" }));
    } finally {
      hook.disable();
    }
    expect(text).toBe("deep/inside/hit.txt:2: needle");
    // The path's own checks and the ignore files looked for, not a few per file searched (301 files).
    expect(requests).toBeLessThan(30);
  });
});

describe("grep and find never repeat a model's huge pattern whole", () => {
  it("cuts a 100,000-character pattern or glob, and the engine's reason, in the error", async () => {
    ws = await makeWorkspace({ "a.txt": "x\n" });
    const huge = "x".repeat(100_000);
    const calls: [string, JsonObject][] = [
      ["grep", { pattern: huge }],
      ["grep", { pattern: `(${huge}` }],
      ["grep", { pattern: "x", glob: `[${huge}` }],
      ["find", { pattern: huge }],
      ["find", { pattern: `[${huge}` }],
    ];
    for (const [tool, input] of calls) {
      const error = await ws.fail(tool, input);
      expect(error.code).toBe("invalid-input");
      expect(error.message.length, `${tool}: ${error.message.slice(0, 80)}`).toBeLessThan(1_000);
    }
  });
});
