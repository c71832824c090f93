// Saved results never follow a link planted in the workspace: nothing is written outside, no outside path is told.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}`).join("\n");
const bigTool = defineTool({
  name: "big",
  description: "Returns a large result",
  inputSchema: { type: "object" },
  execute: () => lines,
});

/** Runs one large call in a session on `root`; returns the text the model gets. */
async function spillIn(root: string, id = "call_1"): Promise<string> {
  const session = sessionWith([bigTool], { workspace: root });
  return textOf(await session.dispatch({ id, name: "big", input: {} }));
}

/** The preview arrived, saying the result could not be saved, and names no path outside the workspace. */
function expectPreviewAlone(preview: string, outside: string): void {
  expect(preview).toContain("could not be saved to a file");
  expect(preview).toContain("line 1\nline 2\n");
  expect(preview).toContain("line 20000");
  expect(preview).not.toContain(outside);
  expect(preview).not.toMatch(/read \(path/);
}

describe("a result over its budget, when the results folder is not a real folder", () => {
  it("is not written through .toolwire made a link to a folder outside", async () => {
    const root = tempFolder("toolwire-links-");
    const outside = tempFolder("toolwire-outside-");
    symlinkSync(outside, join(root, ".toolwire"));
    const preview = await spillIn(root);
    expect(readdirSync(outside)).toEqual([]);
    expectPreviewAlone(preview, outside);
    expect(preview).toContain(".toolwire is a symbolic link");
  });

  it("is not written through .toolwire/results made a link to a folder outside", async () => {
    const root = tempFolder("toolwire-links-");
    const outside = tempFolder("toolwire-outside-");
    mkdirSync(join(root, ".toolwire"));
    symlinkSync(outside, join(root, ".toolwire", "results"));
    const preview = await spillIn(root);
    expect(readdirSync(outside)).toEqual([]);
    expectPreviewAlone(preview, outside);
    expect(preview).toContain(".toolwire/results is a symbolic link");
  });

  it("does not make the folder a dangling link points to", async () => {
    const root = tempFolder("toolwire-links-");
    const outside = tempFolder("toolwire-outside-");
    const target = join(outside, "made-by-the-spill");
    symlinkSync(target, join(root, ".toolwire"));
    const preview = await spillIn(root);
    expect(readdirSync(outside)).toEqual([]);
    expectPreviewAlone(preview, outside);
  });

  it("says so when a file stands where the folder should be", async () => {
    const root = tempFolder("toolwire-links-");
    mkdirSync(join(root, ".toolwire"));
    writeFileSync(join(root, ".toolwire", "results"), "not a folder");
    const preview = await spillIn(root);
    expectPreviewAlone(preview, root);
    expect(preview).toContain(".toolwire/results is not a folder");
    expect(readFileSync(join(root, ".toolwire", "results"), "utf8")).toBe("not a folder");
  });

  it("never opens a file name planted as a link: the result goes to the next free name inside", async () => {
    const root = tempFolder("toolwire-links-");
    const outside = tempFolder("toolwire-outside-");
    const results = join(root, ".toolwire", "results");
    mkdirSync(results, { recursive: true });
    const victim = join(outside, "victim.txt");
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(results, "call_1.txt"));
    symlinkSync(join(outside, "dangling.txt"), join(results, "call_1-2.txt"));
    const preview = await spillIn(root);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(readdirSync(outside)).toEqual(["victim.txt"]);
    expect(preview).toContain('read (path ".toolwire/results/call_1-3.txt"');
    expect(readFileSync(join(results, "call_1-3.txt"), "utf8")).toBe(lines);
  });
});
