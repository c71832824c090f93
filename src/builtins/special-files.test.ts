import { execFileSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";
import type { FindDetails } from "./find.js";
import type { GrepDetails } from "./grep.js";

// Each test here used to hang (a FIFO opened for reading blocks a libuv thread until a writer comes)
// or read without end (a device): the per-test bound below is what turns a hang into a failure.
const BOUND = { timeout: 8000 };

let ws: TestWorkspace;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
  await ws.cleanup();
});

const mkfifo = (path: string) => execFileSync("mkfifo", [path]);
// A character device node inside the root: the same device as /dev/zero (major 1, minor 5).
const canMknod = process.getuid?.() === 0;
const mkzero = (path: string) => execFileSync("mknod", [path, "c", "1", "5"]);

describe("special files: only regular files and folders are used", () => {
  it("grep refuses a FIFO named as its path instead of blocking on it", BOUND, async () => {
    ws = await makeWorkspace();
    mkfifo(join(ws.root, "pipe"));
    const error = await ws.fail("grep", { pattern: "x", path: "pipe" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("pipe is a named pipe (FIFO), not a regular file, so grep does not use it");
  });

  it("many greps on FIFOs at once leave the file thread pool free for read", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "hello\n" });
    const calls = [];
    for (let index = 0; index < 8; index++) {
      mkfifo(join(ws.root, `pipe${index}`));
      calls.push(ws.call("grep", { pattern: "x", path: `pipe${index}` }));
    }
    const outcomes = await Promise.all(calls);
    expect(outcomes.map((outcome) => outcome.kind === "error" && outcome.error.code)).toEqual(
      Array(8).fill("invalid-input"),
    );
    expect(textOf(await ws.ok("read", { path: "a.txt" }))).toContain("hello");
  });

  it.runIf(canMknod)("read, grep and edit refuse a device node inside the root", BOUND, async () => {
    ws = await makeWorkspace();
    mkzero(join(ws.root, "zero"));
    for (const [tool, input] of [
      ["read", { path: "zero" }],
      ["grep", { pattern: "x", path: "zero" }],
      ["edit", { path: "zero", oldText: "a", newText: "b" }],
      ["find", { pattern: "*", path: "zero" }],
      ["ls", { path: "zero" }],
    ] as const) {
      const error = await ws.fail(tool, input);
      expect(error.code, tool).toBe("invalid-input");
      expect(error.message, tool).toContain("zero is a character device");
    }
  });

  it("read refuses a socket, naming what it is", BOUND, async () => {
    ws = await makeWorkspace();
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(join(ws.root, "sock"), resolve));
    const error = await ws.fail("read", { path: "sock" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("sock is a socket, not a regular file");
  });

  it("write refuses to replace a FIFO and leaves it a FIFO", BOUND, async () => {
    ws = await makeWorkspace();
    mkfifo(join(ws.root, "pipe"));
    const error = await ws.fail("write", { path: "pipe", content: "x" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("pipe is a named pipe (FIFO)");
    expect((await stat(join(ws.root, "pipe"))).isFIFO()).toBe(true);
  });

  it("edit refuses a FIFO instead of blocking on it", BOUND, async () => {
    ws = await makeWorkspace();
    mkfifo(join(ws.root, "pipe"));
    const error = await ws.fail("edit", { path: "pipe", oldText: "a", newText: "b" });
    expect(error.code).toBe("invalid-input");
  });

  it("walks past FIFOs and devices without opening them, counting them", BOUND, async () => {
    ws = await makeWorkspace({ "src/a.txt": "needle\n" });
    mkfifo(join(ws.root, "src", "pipe"));
    if (canMknod) mkzero(join(ws.root, "src", "zero"));
    const grep = await ws.ok("grep", { pattern: "needle" });
    expect(textOf(grep)).toBe("src/a.txt:1: needle");
    expect((grep.details as GrepDetails).walk?.skippedSpecial).toBe(canMknod ? 2 : 1);
    const find = await ws.ok("find", { pattern: "*" });
    expect((find.details as FindDetails).matches).toEqual(["src/", "src/a.txt"]);
  });

  it("grep skips a link inside the root that points to a FIFO", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n" });
    mkfifo(join(ws.root, "pipe"));
    execFileSync("ln", ["-s", "pipe", join(ws.root, "link")]);
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toBe("a.txt:1: needle");
    expect((await ws.fail("read", { path: "link" })).code).toBe("invalid-input");
  });
});

describe("ignore files are read only when they are small regular files inside the root", () => {
  it("a FIFO .gitignore does not hang grep or find, and the result says it was not read", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n", "sub/b.txt": "needle\n" });
    mkfifo(join(ws.root, ".gitignore"));
    mkfifo(join(ws.root, "sub", ".gitignore"));
    const grep = await ws.ok("grep", { pattern: "needle" });
    expect(textOf(grep)).toContain("a.txt:1: needle\nsub/b.txt:1: needle");
    expect(textOf(grep)).toContain(
      "[Ignore file .gitignore was not read because it is a named pipe (FIFO); its rules were not applied.]",
    );
    expect((grep.details as GrepDetails).walk?.ignoreFilesNotRead).toEqual([
      { path: ".gitignore", why: "it is a named pipe (FIFO)" },
      { path: "sub/.gitignore", why: "it is a named pipe (FIFO)" },
    ]);
    // An ancestor's .gitignore, read when the search starts below it.
    expect(textOf(await ws.ok("find", { pattern: "*.txt", path: "sub" }))).toContain(
      "[Ignore file .gitignore was not read because it is a named pipe (FIFO)",
    );
  });

  it("a FIFO .git/info/exclude does not hang a search", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n", ".git/info/.keep": "" });
    mkfifo(join(ws.root, ".git", "info", "exclude"));
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toContain(
      "[Ignore file .git/info/exclude was not read because it is a named pipe (FIFO)",
    );
  });

  it("a .gitignore linked to a file outside the root is not followed", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n" });
    await writeFile(join(ws.outside, "rules"), "a.txt\n");
    execFileSync("ln", ["-s", join(ws.outside, "rules"), join(ws.root, ".gitignore")]);
    const find = await ws.ok("find", { pattern: "*.txt" });
    expect(textOf(find)).toContain("a.txt");
    expect(textOf(find)).toContain("[Ignore file .gitignore was not read because it is a symbolic link");
  });

  it("a .gitignore linked to /dev/zero is not read", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n" });
    execFileSync("ln", ["-s", "/dev/zero", join(ws.root, ".gitignore")]);
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toContain("a.txt:1: needle");
  });

  it.runIf(canMknod)("a device node .gitignore is not read", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n" });
    mkzero(join(ws.root, ".gitignore"));
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toContain(
      "[Ignore file .gitignore was not read because it is a character device",
    );
  });

  it("a .gitignore over 1 MB is not applied, and the result says so", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n", ".gitignore": `a.txt\n${"#".repeat(1024 * 1024)}\n` });
    const find = await ws.ok("find", { pattern: "*.txt" });
    expect((find.details as FindDetails).matches).toEqual(["a.txt"]);
    expect(textOf(find)).toContain("[Ignore file .gitignore was not read because it is over 1 MB");
  });

  it("a regular .gitignore under the cap still applies", BOUND, async () => {
    ws = await makeWorkspace({ "a.txt": "needle\n", "b.txt": "needle\n", ".gitignore": "a.txt\n" });
    expect(textOf(await ws.ok("grep", { pattern: "needle" }))).toBe("b.txt:1: needle");
    expect(await readFile(join(ws.root, ".gitignore"), "utf8")).toBe("a.txt\n");
  });
});

describe("errors name the path the model gave, cut when long", () => {
  it("cuts a long missing path to 200 characters in every tool's error", async () => {
    ws = await makeWorkspace();
    const path = `${"folder/".repeat(60)}missing.txt`;
    for (const [tool, input] of [
      ["read", { path }],
      ["ls", { path }],
      ["grep", { pattern: "x", path }],
      ["find", { pattern: "*", path }],
      ["edit", { path, oldText: "a", newText: "b" }],
    ] as const) {
      const error = await ws.fail(tool, input);
      expect(error.message, tool).toContain(`${path.slice(0, 200)}…`);
      expect(error.message, tool).not.toContain(path);
    }
  });
});
