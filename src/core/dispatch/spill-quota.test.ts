// Saved results are held to a quota per folder, and a session's temporary folder goes when it closes or the process
// exits.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { builtScript } from "../../../test/e2e/helpers/build.js";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import { DEFAULT_MAX_SPILL_BYTES } from "./result-budget.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function workspace(): string {
  const folder = mkdtempSync(join(tmpdir(), "toolwire-quota-"));
  folders.push(folder);
  return folder;
}

const MB = 1024 * 1024;

/** A tool `big` whose result is `chars` characters of text (one byte each); its limit is 1 000 characters. */
const bigTool = (chars: number) =>
  defineTool({
    name: "big",
    description: "Returns a large result",
    inputSchema: { type: "object" },
    maxResultChars: 1_000,
    execute: () => "x".repeat(chars),
  });

/** The bytes of the files in the workspace's results folder. */
function savedBytes(root: string): number {
  const results = join(root, ".toolwire", "results");
  return readdirSync(results).reduce((sum, name) => sum + statSync(join(results, name)).size, 0);
}

/** The path a preview names, when the result was saved. */
const savedPath = (preview: string) => /saved whole to (\S+\.txt)\./.exec(preview)?.[1];

describe("the quota of saved results", () => {
  it("is 1 GiB unless the session sets maxSpillBytes", () => {
    expect(DEFAULT_MAX_SPILL_BYTES).toBe(1024 ** 3);
    for (const bad of [0, -1, Number.NaN, "1000"]) {
      expect(() => sessionWith([], { maxSpillBytes: bad as number })).toThrow(/maxSpillBytes must be a positive/);
    }
  });

  it("once reached, leaves the model the preview alone and says why", async () => {
    const root = workspace();
    const session = sessionWith([bigTool(400_000)], { workspace: root, maxSpillBytes: MB });
    const previews: string[] = [];
    for (const id of ["a", "b", "c"]) previews.push(textOf(await session.dispatch({ id, name: "big", input: {} })));
    expect(previews.slice(0, 2).map(savedPath)).toEqual([".toolwire/results/a.txt", ".toolwire/results/b.txt"]);
    expect(previews[2]).toContain(
      "could not be saved to a file (the results saved in this workspace have reached their quota of 1 MiB)",
    );
    expect(previews[2]).toContain("xxxx");
    expect(readdirSync(join(root, ".toolwire", "results")).sort()).toEqual([".gitignore", "a.txt", "b.txt"]);
    expect(savedBytes(root)).toBeLessThanOrEqual(MB);
  });

  it("refuses at once a result larger than the whole quota", async () => {
    const root = workspace();
    const session = sessionWith([bigTool(2 * MB)], { workspace: root, maxSpillBytes: MB });
    const preview = textOf(await session.dispatch({ id: "a", name: "big", input: {} }));
    expect(preview).toContain("(it has 2 MiB, more than the whole quota of saved results, 1 MiB)");
    expect(existsSync(join(root, ".toolwire"))).toBe(false);
  });

  it("holds when 20 calls spill at once: what is written stays within it", async () => {
    const root = workspace();
    const session = sessionWith([bigTool(100_000)], { workspace: root, maxSpillBytes: MB });
    const calls = Array.from({ length: 20 }, (_, index) => ({ id: `c${index}`, name: "big", input: {} }));
    const previews = (await session.dispatchAll(calls)).map(textOf);
    // 1 MiB holds ten results of 100 000 bytes and the .gitignore, not eleven.
    expect(previews.filter((preview) => savedPath(preview) !== undefined)).toHaveLength(10);
    expect(previews.filter((preview) => preview.includes("reached their quota"))).toHaveLength(10);
    expect(savedBytes(root)).toBeLessThanOrEqual(MB);
  });

  it("counts the files already in the folder, and is shared by the sessions of the process on it", async () => {
    const root = workspace();
    mkdirSync(join(root, ".toolwire", "results"), { recursive: true });
    writeFileSync(join(root, ".toolwire", "results", "old.txt"), "o".repeat(500_000));
    const first = sessionWith([bigTool(400_000)], { workspace: root, maxSpillBytes: MB });
    const second = sessionWith([bigTool(400_000)], { workspace: root, maxSpillBytes: MB });
    expect(savedPath(textOf(await first.dispatch({ id: "a", name: "big", input: {} })))).toBeDefined();
    const refused = textOf(await second.dispatch({ id: "b", name: "big", input: {} }));
    expect(refused).toContain("reached their quota of 1 MiB");
    expect(savedBytes(root)).toBeLessThanOrEqual(MB);
  });
});

describe("a session's temporary folder of saved results", () => {
  it("is removed by close(), and no new one is made after it", async () => {
    const session = sessionWith([bigTool(60_000)]);
    const path = savedPath(textOf(await session.dispatch({ id: "t", name: "big", input: {} }))) as string;
    folders.push(dirname(path));
    expect(existsSync(path)).toBe(true);
    session.close();
    expect(existsSync(dirname(path))).toBe(false);
    const after = textOf(await session.dispatch({ id: "u", name: "big", input: {} }));
    expect(after).toContain("could not be saved to a file (the session is closed)");
  });

  it("has a quota of its own", async () => {
    const session = sessionWith([bigTool(400_000)], { maxSpillBytes: MB });
    const previews: string[] = [];
    for (const id of ["a", "b", "c"]) previews.push(textOf(await session.dispatch({ id, name: "big", input: {} })));
    session.close();
    expect(previews[2]).toContain("the results this session saved have reached their quota of 1 MiB");
  });

  it("adds one exit listener to the process, however many sessions make one", async () => {
    const warm = sessionWith([bigTool(60_000)]);
    await warm.dispatch({ id: "w", name: "big", input: {} });
    const listeners = process.listenerCount("exit");
    const sessions = Array.from({ length: 20 }, () => sessionWith([bigTool(60_000)]));
    await Promise.all(sessions.map((session) => session.dispatch({ id: "s", name: "big", input: {} })));
    expect(process.listenerCount("exit")).toBe(listeners);
    for (const session of [warm, ...sessions]) session.close();
  });

  it("is removed when the process exits without closing the session", () => {
    const built = pathToFileURL(builtScript("dist/index.js")).href;
    const script = `
      const { createAgentSession, createToolRegistry, defineTool } = await import(${JSON.stringify(built)});
      const tool = defineTool({ name: "big", description: "d", inputSchema: { type: "object" }, execute: () => "x".repeat(60000) });
      const session = createAgentSession({ registry: createToolRegistry({ custom: [tool] }) });
      const block = await session.dispatch({ id: "t", name: "big", input: {} });
      const path = /saved whole to (\\S+\\.txt)\\./.exec(block.content[0].text)[1];
      const { existsSync } = await import("node:fs");
      console.log(JSON.stringify({ path, existed: existsSync(path) }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    const { path, existed } = JSON.parse(output) as { path: string; existed: boolean };
    folders.push(dirname(path));
    expect(existed).toBe(true);
    expect(existsSync(dirname(path))).toBe(false);
  });
});
