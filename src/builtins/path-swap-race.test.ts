import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";

// A real second process swaps the folder `d` inside the root with a link to an outside folder, as
// fast as it can, while the tools run: it renames d aside, renames a ready link into its place,
// renames the link back out, and renames d back. Any result holding the outside secret, or any
// file appearing outside, is a leak.
const SWAPPER = `
const { renameSync, readdirSync } = require("node:fs");
const { join } = require("node:path");
const root = process.argv[1];
const d = join(root, "d"), aside = join(root, "d-aside"), link = join(root, "link");
let strays = 0;
const step = (from, to) => { try { renameSync(from, to); } catch {} };
process.send?.("ready");
for (;;) {
  step(d, aside);
  step(link, d);
  step(d, link);
  try {
    renameSync(aside, d);
  } catch {
    // A write created a fresh d while it was away: move that one aside so the swapping goes on.
    step(d, join(root, "stray-" + strays++));
  }
}
`;

const RUN_MS = 2500;
const SECRET = "OUTSIDE-SECRET-4f1c";

let ws: TestWorkspace;
let swapper: ChildProcess | undefined;
afterEach(async () => {
  if (swapper !== undefined && swapper.exitCode === null && swapper.signalCode === null) {
    swapper.kill("SIGKILL");
    await new Promise((resolve) => swapper?.once("exit", resolve));
  }
  swapper = undefined;
  await ws.cleanup();
});

describe("a folder swapped for a link to outside during calls", () => {
  it("never gives outside content to read or grep, and never lets write land outside", {
    timeout: 20_000,
  }, async () => {
    ws = await makeWorkspace({ "d/secret.txt": "inside content\n", "d/edit.txt": "flip-a\n" });
    await writeFile(join(ws.outside, "secret.txt"), `${SECRET}\n`);
    // An edit that reached this file would succeed: it must stay as it is.
    await writeFile(join(ws.outside, "edit.txt"), "flip-a\n");
    await mkdir(join(ws.outside, "outside-only"));
    await writeFile(join(ws.outside, "outside-only", "secret.txt"), `${SECRET}\n`);
    await symlink(ws.outside, join(ws.root, "link"));
    swapper = spawn(process.execPath, ["-e", SWAPPER, ws.root], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    await new Promise((resolve) => swapper?.once("message", resolve));

    const leaks: string[] = [];
    let insideReads = 0;
    let calls = 0;
    const deadline = Date.now() + RUN_MS;
    for (let round = 0; Date.now() < deadline; round++) {
      const outcomes = await Promise.all([
        ws.call("read", { path: "d/secret.txt" }),
        ws.call("read", { path: "d/outside-only/secret.txt" }),
        ws.call("grep", { pattern: "SECRET|inside", path: "d" }),
        ws.call("grep", { pattern: "SECRET", path: "d/secret.txt" }),
        ws.call("ls", { path: "d" }),
        ws.call("find", { pattern: "*", path: "d" }),
        ws.call("write", { path: `d/new-${round}.txt`, content: "written\n" }),
        ws.call("write", { path: `d/deeper/new-${round}.txt`, content: "written\n" }),
        ws.call("edit", { path: "d/edit.txt", oldText: "flip-a", newText: "flip-b" }),
        ws.call("edit", { path: "d/edit.txt", oldText: "flip-b", newText: "flip-a" }),
      ]);
      calls += outcomes.length;
      for (const outcome of outcomes) {
        const text = outcome.kind === "result" ? textOf(outcome.result) : outcome.error.message;
        // An error may repeat the path the model gave; a result must not list the outside folder's names.
        if (text.includes(SECRET) || (outcome.kind === "result" && text.includes("outside-only"))) leaks.push(text);
        if (outcome.kind === "result" && text.includes("inside content")) insideReads++;
      }
    }
    swapper.kill("SIGKILL");
    await eventually(async () => swapper?.exitCode !== null || swapper?.signalCode !== null);

    expect(leaks).toEqual([]);
    expect((await readdir(ws.outside)).sort()).toEqual(["edit.txt", "outside-only", "secret.txt"]);
    expect(await readFile(join(ws.outside, "edit.txt"), "utf8")).toBe("flip-a\n");
    expect(await readdir(join(ws.outside, "outside-only"))).toEqual(["secret.txt"]);
    // The race was real: many calls ran, and some of them did read the inside file.
    expect(calls).toBeGreaterThan(100);
    expect(insideReads).toBeGreaterThan(0);
  });
});
