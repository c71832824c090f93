import { execFileSync } from "node:child_process";
import {
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-write.js";
import { listFolderPinned, OutsideWorkspaceError, openFolderInside, readFolderInside } from "./folder-inside.js";
import { createFolderFileReader, HAS_PROC_FD, isOpenedInside, openFileInside, readUpTo } from "./open-inside.js";
import { createWorkspace, type Workspace } from "./workspace.js";

// These call the helpers with a path the guard resolved before something changed it, which is the
// state a racing process leaves: each one is the losing side of the race, made deterministic.
let base: string;
let root: string;
let outside: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "toolwire-open-")));
  root = join(base, "root");
  outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "TOP-SECRET");
  workspace = createWorkspace(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("openFileInside", () => {
  it("opens a regular file inside the root and gives the descriptor's stats", async () => {
    await writeFile(join(root, "a.txt"), "hello");
    const outcome = await openFileInside(workspace, join(root, "a.txt"));
    expect(outcome.kind).toBe("opened");
    if (outcome.kind !== "opened") return;
    expect(outcome.stats.size).toBe(5);
    expect((await readUpTo(outcome.handle, 100))?.toString()).toBe("hello");
    await outcome.handle.close();
  });

  it("refuses a file reached through a folder that became a link out of the root after the check", async () => {
    await symlink(outside, join(root, "d"));
    const outcome = await openFileInside(workspace, join(root, "d", "secret.txt"));
    expect(outcome).toEqual({ kind: "refused", refusal: { kind: "outside" } });
  });

  it("refuses a file whose own name became a link, even one to a file inside", async () => {
    await writeFile(join(root, "real.txt"), "x");
    await symlink(join(root, "real.txt"), join(root, "swapped.txt"));
    expect(await openFileInside(workspace, join(root, "swapped.txt"))).toEqual({
      kind: "refused",
      refusal: { kind: "link" },
    });
  });

  it("refuses a FIFO at once, with no writer on the other end", async () => {
    execFileSync("mkfifo", [join(root, "pipe")]);
    expect(await openFileInside(workspace, join(root, "pipe"))).toEqual({
      kind: "refused",
      refusal: { kind: "special", what: "a named pipe (FIFO)" },
    });
  });

  it("says a missing file is missing and a folder is a folder", async () => {
    await mkdir(join(root, "sub"));
    expect(await openFileInside(workspace, join(root, "nope"))).toEqual({
      kind: "refused",
      refusal: { kind: "missing" },
    });
    expect(await openFileInside(workspace, join(root, "sub"))).toEqual({
      kind: "refused",
      refusal: { kind: "folder" },
    });
  });
});

describe("the check of what was opened, without /proc (as on macOS)", () => {
  it("accepts a file inside and refuses one reached through a folder now linked outside", async () => {
    await writeFile(join(root, "a.txt"), "hello");
    await symlink(outside, join(root, "d"));
    for (const [path, inside] of [
      [join(root, "a.txt"), true],
      [join(root, "d", "secret.txt"), false],
    ] as const) {
      const handle = await open(path, "r");
      expect(await isOpenedInside(workspace, handle, path, await handle.stat(), false), path).toBe(inside);
      await handle.close();
    }
  });

  it("opens a folder inside, and refuses one now linked outside", async () => {
    await mkdir(join(root, "sub"));
    await symlink(outside, join(root, "d"));
    const folder = await openFolderInside(workspace, join(root, "sub"), { viaProc: false });
    expect(folder.pinned).toBe(false);
    expect(await folder.stillInside()).toBe(true);
    await folder.close();
    await expect(openFolderInside(workspace, join(root, "d"), { viaProc: false })).rejects.toThrow();
    await expect(
      openFolderInside(workspace, join(root, "d", "new"), { viaProc: false, create: true }),
    ).rejects.toBeInstanceOf(OutsideWorkspaceError);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });
});

describe("readUpTo", () => {
  it("reads a file of exactly the cap, and gives undefined for one byte more", async () => {
    await writeFile(join(root, "a"), "12345");
    const opened = await openFileInside(workspace, join(root, "a"));
    if (opened.kind !== "opened") throw new Error("not opened");
    expect((await readUpTo(opened.handle, 5))?.toString()).toBe("12345");
    expect(await readUpTo(opened.handle, 4)).toBeUndefined();
    await opened.handle.close();
  });
});

describe("readFolderInside", () => {
  it("does not list a folder that became a link out of the root", async () => {
    await symlink(outside, join(root, "d"));
    await expect(readFolderInside(workspace, join(root, "d"))).rejects.toBeInstanceOf(OutsideWorkspaceError);
  });
});

describe.runIf(HAS_PROC_FD)("listFolderPinned and createFolderFileReader (a walk's folders and files)", () => {
  it("keeps reading the folder it opened after its name is swapped for a link out of the root", async () => {
    await mkdir(join(root, "d", "sub"), { recursive: true });
    await writeFile(join(root, "d", "a.txt"), "inside a");
    await writeFile(join(root, "d", "sub", "c.txt"), "inside c");
    await mkdir(join(outside, "sub"));
    await writeFile(join(outside, "a.txt"), "TOP-SECRET a");
    await writeFile(join(outside, "sub", "c.txt"), "TOP-SECRET c");
    const folder = listFolderPinned(workspace, join(root, "d"));
    try {
      expect(folder.entries.map((entry) => entry.name).sort()).toEqual(["a.txt", "sub"]);
      await rename(join(root, "d"), join(root, "d-aside"));
      await symlink(outside, join(root, "d"));
      const read = createFolderFileReader(1024);
      expect(read(`${folder.pinned}/a.txt`)).toEqual({ kind: "read", bytes: Buffer.from("inside a") });
      const sub = listFolderPinned(workspace, `${folder.pinned}/sub`);
      expect(read(`${sub.pinned}/c.txt`)).toEqual({ kind: "read", bytes: Buffer.from("inside c") });
      sub.close();
    } finally {
      folder.close();
    }
  });

  it("refuses a folder whose own name is a link, and one outside the root", async () => {
    await symlink(outside, join(root, "d"));
    expect(() => listFolderPinned(workspace, join(root, "d"))).toThrow(/ELOOP|ENOTDIR/);
    expect(() => listFolderPinned(workspace, outside)).toThrow(OutsideWorkspaceError);
    const top = listFolderPinned(workspace, root);
    try {
      expect(() => listFolderPinned(workspace, `${top.pinned}/d`)).toThrow(/ELOOP|ENOTDIR/);
    } finally {
      top.close();
    }
  });

  it("refuses a link at a file's name, a FIFO without blocking, and a folder; says a missing file is missing", async () => {
    await symlink(join(outside, "secret.txt"), join(root, "link.txt"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    await mkdir(join(root, "sub"));
    const folder = listFolderPinned(workspace, root);
    try {
      const read = createFolderFileReader(1024);
      expect(read(`${folder.pinned}/link.txt`)).toEqual({ kind: "refused", refusal: { kind: "link" } });
      expect(read(`${folder.pinned}/pipe`)).toEqual({
        kind: "refused",
        refusal: { kind: "special", what: "a named pipe (FIFO)" },
      });
      expect(read(`${folder.pinned}/sub`)).toEqual({ kind: "refused", refusal: { kind: "folder" } });
      expect(read(`${folder.pinned}/nope`)).toEqual({ kind: "refused", refusal: { kind: "missing" } });
    } finally {
      folder.close();
    }
  });

  it("reads files larger than its first buffer whole, small ones after them exactly, and none over the cap", async () => {
    const big = Buffer.alloc(200 * 1024, "b");
    await writeFile(join(root, "big"), big);
    await writeFile(join(root, "small"), "tiny");
    await writeFile(join(root, "empty"), "");
    await writeFile(join(root, "over"), Buffer.alloc(300 * 1024 + 1, "o"));
    const folder = listFolderPinned(workspace, root);
    try {
      const read = createFolderFileReader(300 * 1024);
      const whole = read(`${folder.pinned}/big`);
      expect(whole.kind === "read" && whole.bytes.equals(big)).toBe(true);
      expect(read(`${folder.pinned}/small`)).toEqual({ kind: "read", bytes: Buffer.from("tiny") });
      expect(read(`${folder.pinned}/empty`)).toEqual({ kind: "read", bytes: Buffer.alloc(0) });
      expect(read(`${folder.pinned}/over`)).toEqual({ kind: "large" });
    } finally {
      folder.close();
    }
  });
});

describe("writeFileAtomic", () => {
  it("writes nothing through a folder that became a link out of the root", async () => {
    await symlink(outside, join(root, "d"));
    await expect(writeFileAtomic(workspace, join(root, "d", "new.txt"), "x")).rejects.toBeInstanceOf(
      OutsideWorkspaceError,
    );
    await expect(
      writeFileAtomic(workspace, join(root, "d", "deeper", "new.txt"), "x", { createFolders: true }),
    ).rejects.toBeInstanceOf(OutsideWorkspaceError);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it("replaces a link that appeared at the file's own name instead of writing through it", async () => {
    await symlink(join(outside, "secret.txt"), join(root, "f.txt"));
    await writeFileAtomic(workspace, join(root, "f.txt"), "new");
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("TOP-SECRET");
    expect((await lstat(join(root, "f.txt"))).isFile()).toBe(true);
    expect(await readFile(join(root, "f.txt"), "utf8")).toBe("new");
  });

  it("creates missing folders inside the root, and leaves no temp file", async () => {
    await writeFileAtomic(workspace, join(root, "a", "b", "c.txt"), "deep", { createFolders: true });
    expect(await readFile(join(root, "a", "b", "c.txt"), "utf8")).toBe("deep");
    expect(await readdir(join(root, "a", "b"))).toEqual(["c.txt"]);
  });

  it("refuses a path outside the root outright", async () => {
    await expect(writeFileAtomic(workspace, join(outside, "x.txt"), "x")).rejects.toBeInstanceOf(OutsideWorkspaceError);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });
});
