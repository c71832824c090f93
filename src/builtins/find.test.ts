import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";
import type { FindDetails } from "./find.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

const FILES = {
  "package.json": "{}",
  "src/index.ts": "",
  "src/index.test.ts": "",
  "src/util/strings.ts": "",
  "src/util/strings.test.ts": "",
  "docs/guide.md": "",
  ".github/workflows/ci.yml": "",
};

describe("find", () => {
  it("matches names at any depth with a pattern without /", async () => {
    ws = await makeWorkspace(FILES);
    expect(textOf(await ws.ok("find", { pattern: "*.test.ts" }))).toBe("src/index.test.ts\nsrc/util/strings.test.ts");
    expect(textOf(await ws.ok("find", { pattern: "*.yml" }))).toBe(".github/workflows/ci.yml");
  });

  it("matches whole paths relative to path with a pattern with /", async () => {
    ws = await makeWorkspace(FILES);
    expect(textOf(await ws.ok("find", { pattern: "src/*.ts" }))).toBe("src/index.test.ts\nsrc/index.ts");
    expect(textOf(await ws.ok("find", { pattern: "util/*.ts", path: "src" }))).toBe(
      "src/util/strings.test.ts\nsrc/util/strings.ts",
    );
    expect(textOf(await ws.ok("find", { pattern: "**/strings.ts" }))).toBe("src/util/strings.ts");
  });

  it("lists matching folders with a trailing /", async () => {
    ws = await makeWorkspace(FILES);
    expect(textOf(await ws.ok("find", { pattern: "util" }))).toBe("src/util/");
  });

  it("respects .gitignore and skips .git", async () => {
    ws = await makeWorkspace({
      ...FILES,
      ".gitignore": "dist/\n",
      "dist/index.js": "",
      ".git/HEAD": "",
      "src/index.js": "",
    });
    expect(textOf(await ws.ok("find", { pattern: "*.js" }))).toBe("src/index.js");
    expect(textOf(await ws.ok("find", { pattern: "HEAD" }))).toContain("No paths match");
  });

  it("never follows a link out of the root", async () => {
    ws = await makeWorkspace(FILES);
    await symlink("/etc", join(ws.root, "etc"));
    await symlink(ws.outside, join(ws.root, "out"));
    const result = await ws.ok("find", { pattern: "*passwd*" });
    expect(textOf(result)).toBe('No paths match "*passwd*" under ..');
    expect((result.details as FindDetails).walk.skippedLinks).toBe(2);
  });

  it("stops at the limit and says so", async () => {
    ws = await makeWorkspace(FILES);
    const text = textOf(await ws.ok("find", { pattern: "*.ts", limit: 2 }));
    expect(text).toBe(
      "src/index.test.ts\nsrc/index.ts\n\n[Showing the first 2 matches (limit reached). Use a narrower pattern or path, or raise limit (at most 2000).]",
    );
  });

  it("refuses a file as path, a missing folder and an outside path", async () => {
    ws = await makeWorkspace(FILES);
    expect((await ws.fail("find", { pattern: "*", path: "package.json" })).code).toBe("invalid-input");
    expect((await ws.fail("find", { pattern: "*", path: "nope" })).message).toContain("Folder not found: nope");
    expect((await ws.fail("find", { pattern: "*", path: "../" })).message).toContain("outside the workspace");
  });

  it("matches an extglob that backtracks without end in picomatch against a long name, quickly", async () => {
    ws = await makeWorkspace({ [`${"a".repeat(200)}`]: "", abc: "" });
    const started = Date.now();
    expect(textOf(await ws.ok("find", { pattern: "+(*)c" }))).toBe("abc");
    expect(textOf(await ws.ok("find", { pattern: "*(*(*(a)))b" }))).toContain("No paths match");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("refuses the negated extglob !(...) and runaway braces with invalid-input", async () => {
    ws = await makeWorkspace(FILES);
    const negated = await ws.fail("find", { pattern: "!(*.md)" });
    expect(negated.code).toBe("invalid-input");
    expect(negated.message).toContain('Invalid glob "!(*.md)": the negated extglob !(...) is not supported');
    const braces = await ws.fail("find", { pattern: "{a,b}".repeat(12) });
    expect(braces.message).toContain("the braces expand to more than 1000 patterns");
    expect(textOf(await ws.ok("find", { pattern: "!*.{ts,md,json,yml}" }))).toBe(
      ".github/\n.github/workflows/\ndocs/\nsrc/\nsrc/util/",
    );
  });
});
