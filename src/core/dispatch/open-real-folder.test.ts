// A folder under a root is reached without following a link, and a file made in it is checked to be where asked.
import { type ChildProcess, spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import { NotARealFolderError, openRealFolder } from "./open-real-folder.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function tempFolder(prefix: string): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  folders.push(folder);
  return folder;
}

const NAMES = [".toolwire", "results"];
const ways = process.platform === "linux" ? [true, false] : [false];

describe.each(ways)("openRealFolder (through /proc/self/fd: %s)", (viaProc) => {
  it("makes the missing folders and creates a new file where asked", async () => {
    const root = tempFolder("toolwire-real-");
    const folder = await openRealFolder(root, NAMES, { viaProc });
    expect(folder.realPath).toBe(join(root, ".toolwire", "results"));
    const file = await folder.createFile("a.txt", 0o600);
    await file.write("hello");
    await file.close();
    await expect(folder.createFile("a.txt", 0o600)).rejects.toMatchObject({ code: "EEXIST" });
    expect(await folder.sizeOfFiles()).toBe(5);
    await folder.close();
    expect(folder.made).toBe(true);
    const again = await openRealFolder(root, NAMES, { viaProc });
    expect(again.made).toBe(false);
    await again.close();
    expect(readFileSync(join(root, ".toolwire", "results", "a.txt"), "utf8")).toBe("hello");
  });

  it("refuses a link where a folder should be, naming it relative to the root", async () => {
    const root = tempFolder("toolwire-real-");
    const outside = tempFolder("toolwire-outside-");
    symlinkSync(outside, join(root, ".toolwire"));
    const error = await openRealFolder(root, NAMES, { viaProc }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NotARealFolderError);
    expect((error as Error).message).toBe(".toolwire is a symbolic link");
    expect(readdirSync(outside)).toEqual([]);
  });

  it("catches a folder swapped for a link to outside after its check, and leaves nothing there", async () => {
    const root = tempFolder("toolwire-real-");
    const outside = tempFolder("toolwire-outside-");
    mkdirSync(join(root, ".toolwire", "results"), { recursive: true });
    mkdirSync(join(outside, "results"));
    const folder = await openRealFolder(root, NAMES, { viaProc });
    // The race, made certain: between the checks and the file's open, .toolwire becomes a link to outside.
    renameSync(join(root, ".toolwire"), join(root, "moved"));
    symlinkSync(outside, join(root, ".toolwire"));
    const error = await folder.createFile("a.txt", 0o600).catch((thrown: unknown) => thrown);
    await folder.close();
    expect(error).toBeInstanceOf(NotARealFolderError);
    expect(readdirSync(join(outside, "results"))).toEqual([]);
    expect(readdirSync(join(root, "moved", "results"))).toEqual([]);
  });
});

describe("a result spilled while a link is swapped in and out of the workspace", () => {
  it("never lands outside, and the model is never told an outside path", async () => {
    const root = tempFolder("toolwire-race-");
    const outside = tempFolder("toolwire-outside-");
    mkdirSync(join(root, ".toolwire", "results"), { recursive: true });
    symlinkSync(outside, join(root, "link"));
    // Another process swaps .toolwire/results for a link to outside and back, as fast as it can.
    const swapper: ChildProcess = spawn(
      process.execPath,
      [
        "-e",
        `const { renameSync } = require("node:fs");
         const [results, real, link] = ${JSON.stringify([".toolwire/results", "real", "link"].map((name) => join(root, name)))};
         for (;;) { try { renameSync(results, real); renameSync(link, results); renameSync(results, link); renameSync(real, results); } catch {} }`,
      ],
      { stdio: "ignore" },
    );
    try {
      const tool = defineTool({
        name: "big",
        description: "d",
        inputSchema: { type: "object" },
        maxResultChars: 10,
        execute: () => "x".repeat(1_000),
      });
      const session = sessionWith([tool], { workspace: root });
      const previews: string[] = [];
      for (let round = 0; round < 20; round++) {
        const calls = Array.from({ length: 20 }, (_, index) => ({ id: `r${round}_${index}`, name: "big", input: {} }));
        previews.push(...(await session.dispatchAll(calls)).map(textOf));
      }
      for (const preview of previews) {
        expect(preview).not.toContain(outside);
        const path = /saved whole to (\S+\.txt)\./.exec(preview)?.[1];
        if (path !== undefined) expect(path).toMatch(/^\.toolwire\/results\/r\d+_\d+\.txt$/);
      }
    } finally {
      swapper.kill();
    }
    expect(readdirSync(outside)).toEqual([]);
  });
});
