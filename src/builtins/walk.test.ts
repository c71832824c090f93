import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace } from "../../test/support/builtins.js";
import { createFolderFileReader, HAS_PROC_FD } from "./open-inside.js";
import { walkWorkspace } from "./walk.js";
import { createWorkspace } from "./workspace.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

describe("walkWorkspace", () => {
  it.runIf(HAS_PROC_FD)(
    "stays in the folders it opened when one is swapped for a link out of the root mid-walk",
    async () => {
      ws = await makeWorkspace({ "d/a.txt": "inside a\n", "d/b.txt": "inside b\n", "d/sub/c.txt": "inside c\n" });
      await mkdir(join(ws.outside, "sub"));
      for (const name of ["a.txt", "b.txt", "sub/c.txt"]) await writeFile(join(ws.outside, name), "TOP-SECRET\n");
      const workspace = createWorkspace(ws.root);
      const read = createFolderFileReader(1024);
      const seen: string[] = [];
      const report = await walkWorkspace(workspace, workspace.realRoot, {
        signal: new AbortController().signal,
        async visit(entry) {
          const content = entry.pinned === undefined ? undefined : read(entry.pinned);
          seen.push(`${entry.display} ${content?.kind === "read" ? content.bytes.toString().trim() : entry.kind}`);
          if (entry.display === "d/a.txt") {
            // The losing side of a race, made deterministic: d is moved aside and a link to outside takes its name.
            await rename(join(ws.root, "d"), join(ws.root, "d-aside"));
            await symlink(ws.outside, join(ws.root, "d"));
          }
          return undefined;
        },
      });
      expect(seen).toEqual([
        "d folder",
        "d/a.txt inside a",
        "d/b.txt inside b",
        "d/sub folder",
        "d/sub/c.txt inside c",
      ]);
      expect(report.unreadable).toBe(0);
    },
  );

  it("gives the event loop a turn at least every 256 entries, so a timeout or an abort can act", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 1000; index++) files[`many/f${index}.txt`] = "";
    ws = await makeWorkspace(files);
    const workspace = createWorkspace(ws.root);
    let sinceTurn = 0;
    let most = 0;
    let walking = true;
    const turn = () => {
      sinceTurn = 0;
      if (walking) setImmediate(turn);
    };
    setImmediate(turn);
    const report = await walkWorkspace(workspace, workspace.realRoot, {
      signal: new AbortController().signal,
      visit() {
        most = Math.max(most, ++sinceTurn);
        return undefined;
      },
    });
    walking = false;
    expect(report.visited).toBe(1001);
    expect(most).toBeLessThanOrEqual(256);
  });
});
