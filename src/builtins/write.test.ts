import { promises as fsp } from "node:fs";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";

let ws: TestWorkspace;
afterEach(async () => {
  vi.restoreAllMocks();
  await ws.cleanup();
});

async function listAll(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries.map(String).sort();
}

describe("write", () => {
  it("creates a file and its missing parent folders", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("write", { path: "src/deep/new.ts", content: "export const a = 1;\n" });
    expect(await readFile(join(ws.root, "src/deep/new.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(textOf(result)).toBe("Created src/deep/new.ts (20 B, 1 line).");
    expect(result.details).toEqual({ path: "src/deep/new.ts", bytes: 20, lines: 1, created: true });
  });

  it("overwrites an existing file, keeping its permission bits, and leaves no temp file", async () => {
    ws = await makeWorkspace({ "run.sh": "echo old\n" });
    await fsp.chmod(join(ws.root, "run.sh"), 0o750);
    const result = await ws.ok("write", { path: "run.sh", content: "echo new\n" });
    expect(textOf(result)).toContain("Overwrote run.sh");
    expect(await readFile(join(ws.root, "run.sh"), "utf8")).toBe("echo new\n");
    expect((await stat(join(ws.root, "run.sh"))).mode & 0o777).toBe(0o750);
    expect(await listAll(ws.root)).toEqual(["run.sh"]);
  });

  it("writes an empty file", async () => {
    ws = await makeWorkspace();
    expect(textOf(await ws.ok("write", { path: "empty", content: "" }))).toBe("Created empty (0 B, 0 lines).");
    expect(await readFile(join(ws.root, "empty"), "utf8")).toBe("");
  });

  it("leaves the old content, no temp file and no new folder when the final rename fails", async () => {
    ws = await makeWorkspace({ "keep.txt": "old content\n" });
    const rename = vi.spyOn(fsp, "rename").mockRejectedValue(Object.assign(new Error("I/O error"), { code: "EIO" }));
    const error = await ws.fail("write", { path: "keep.txt", content: "new content\n" });
    expect(rename).toHaveBeenCalledOnce();
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain("Could not write keep.txt");
    expect(error.message).toContain("The file was left as it was.");
    expect(await readFile(join(ws.root, "keep.txt"), "utf8")).toBe("old content\n");
    expect(await listAll(ws.root)).toEqual(["keep.txt"]);
    await ws.fail("write", { path: "new/deeper/file.txt", content: "x" });
    expect(await listAll(ws.root)).toEqual(["keep.txt"]);
  });

  it("writes through a link that stays inside the root, keeping the link", async () => {
    ws = await makeWorkspace({ "real.txt": "old" });
    await symlink("real.txt", join(ws.root, "alias.txt"));
    await ws.ok("write", { path: "alias.txt", content: "new" });
    expect(await readFile(join(ws.root, "real.txt"), "utf8")).toBe("new");
    expect((await fsp.lstat(join(ws.root, "alias.txt"))).isSymbolicLink()).toBe(true);
  });

  it("refuses a folder as the target and leaves it intact", async () => {
    ws = await makeWorkspace({ "src/a.ts": "a" });
    const error = await ws.fail("write", { path: "src", content: "x" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toBe("src is a folder; give the path of a file inside it.");
    expect(await readFile(join(ws.root, "src/a.ts"), "utf8")).toBe("a");
  });

  it("fails precisely when a parent of the path is a file", async () => {
    ws = await makeWorkspace({ "a.txt": "a" });
    const error = await ws.fail("write", { path: "a.txt/b.txt", content: "x" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain("Could not write a.txt/b.txt");
    expect(await listAll(ws.root)).toEqual(["a.txt"]);
  });

  it("refuses paths outside the root (.., absolute, through links) and creates nothing", async () => {
    ws = await makeWorkspace();
    await symlink(ws.outside, join(ws.root, "out"));
    await symlink(join(ws.outside, "target.txt"), join(ws.root, "dangling.txt"));
    for (const path of ["../escape.txt", join(ws.outside, "abs.txt"), "out/through-link.txt", "dangling.txt"]) {
      const error = await ws.fail("write", { path, content: "x" });
      expect(error.code).toBe("invalid-input");
    }
    expect(await readdir(ws.outside)).toEqual([]);
  });

  it("does not start when the call is already aborted, leaving the old content", async () => {
    ws = await makeWorkspace({ "keep.txt": "old" });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const outcome = await ws.call("write", { path: "sub/keep.txt", content: "new" }, { signal: controller.signal });
    expect(outcome.kind === "error" && outcome.error.code).toBe("aborted");
    const again = await ws.call("write", { path: "keep.txt", content: "new" }, { signal: controller.signal });
    expect(again.kind === "error" && again.error.message).toBe("The write was aborted; keep.txt was left as it was.");
    await expect(readFile(join(ws.root, "keep.txt"), "utf8")).resolves.toBe("old");
    expect(await listAll(ws.root)).toEqual(["keep.txt"]);
  });

  it("creates a file in a new folder next to existing ones", async () => {
    ws = await makeWorkspace();
    await mkdir(join(ws.root, "a"));
    await writeFile(join(ws.root, "a", "x"), "x");
    await ws.ok("write", { path: "a/b/c.txt", content: "c" });
    expect(await listAll(ws.root)).toEqual(["a", "a/b", "a/b/c.txt", "a/x"]);
  });
});
