import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

describe("ls", () => {
  it("lists the root sorted, hidden entries included, folders ending in /", async () => {
    ws = await makeWorkspace({ "b.txt": "", "a.txt": "", ".env.example": "", "src/index.ts": "", "Z.md": "" });
    const result = await ws.ok("ls", {});
    expect(textOf(result)).toBe([".env.example", "Z.md", "a.txt", "b.txt", "src/"].join("\n"));
    expect(result.details).toEqual({ path: ".", entries: 5, shown: 5, truncated: false });
  });

  it("lists a subfolder", async () => {
    ws = await makeWorkspace({ "src/a.ts": "", "src/lib/b.ts": "" });
    expect(textOf(await ws.ok("ls", { path: "src" }))).toBe("a.ts\nlib/");
  });

  it("shows links inside the root with their target, and marks links out of it without following them", async () => {
    ws = await makeWorkspace({ "src/a.ts": "" });
    await writeFile(join(ws.outside, "secret.txt"), "TOP-SECRET");
    await symlink("src", join(ws.root, "code"));
    await symlink(join(ws.root, "src", "a.ts"), join(ws.root, "main.ts"));
    await symlink("/etc", join(ws.root, "etc"));
    await symlink(join(ws.outside, "secret.txt"), join(ws.root, "leak"));
    await symlink("nowhere", join(ws.root, "broken"));
    const text = textOf(await ws.ok("ls", {}));
    expect(text.split("\n")).toEqual([
      "broken -> (dangling link; not followed)",
      "code/ -> src/",
      "etc -> (outside the workspace; not followed)",
      "leak -> (outside the workspace; not followed)",
      "main.ts -> src/a.ts",
      "src/",
    ]);
    expect(text).not.toContain(ws.outside);
  });

  it("marks special files", async () => {
    ws = await makeWorkspace();
    execFileSync("mkfifo", [join(ws.root, "fifo")]);
    expect(textOf(await ws.ok("ls", {}))).toBe("fifo (named pipe; the file tools do not open it)");
  });

  it("says when a folder is empty", async () => {
    ws = await makeWorkspace();
    await mkdir(join(ws.root, "empty"));
    expect(textOf(await ws.ok("ls", { path: "empty" }))).toBe("empty is an empty folder.");
  });

  it("stops at the limit and says how to see more", async () => {
    ws = await makeWorkspace(
      Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`f${String(index).padStart(2, "0")}`, ""])),
    );
    const result = await ws.ok("ls", { limit: 10 });
    const text = textOf(result);
    expect(text.split("\n").slice(0, 10)).toEqual(
      Array.from({ length: 10 }, (_, index) => `f${String(index).padStart(2, "0")}`),
    );
    expect(text).toContain(
      "[Showing 10 of 30 entries. Raise limit (at most 2000) or use find with a pattern to narrow the list.]",
    );
    expect(result.details).toMatchObject({ entries: 30, shown: 10, truncated: true });
  });

  it("refuses a file, a missing folder and paths outside the root", async () => {
    ws = await makeWorkspace({ "a.txt": "abc" });
    await symlink("/etc", join(ws.root, "etc"));
    const file = await ws.fail("ls", { path: "a.txt" });
    expect(file.code).toBe("invalid-input");
    expect(file.message).toBe("a.txt is a file (3 B), not a folder. Use read to see its content.");
    expect((await ws.fail("ls", { path: "nope" })).message).toContain("Folder not found: nope");
    expect((await ws.fail("ls", { path: ".." })).message).toContain("outside the workspace");
    expect((await ws.fail("ls", { path: "etc" })).message).toContain("through a symbolic link");
    expect((await ws.fail("ls", { path: "/" })).code).toBe("invalid-input");
  });
});
