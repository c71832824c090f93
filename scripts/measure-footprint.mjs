// What installing toolwire alone costs a consumer: packs this folder (build it first: `npm run footprint` does),
// installs the tarball into a fresh project (its dependencies from the registry npm is configured with), and counts
// the packages and bytes in that project's node_modules. Then it checks, in that project, that the root and
// toolwire/builtins load and dispatch without any optional peer dependency, and that toolwire/mcp refuses with
// `missing-peer-dependency`. Prints a summary, or JSON with --json; --keep leaves the temporary folder.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = ["--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];

/** Every installed package folder under `modules` (scoped ones and nested node_modules included). */
function packageFolders(modules) {
  const found = [];
  const visit = (dir) => {
    for (const entry of safeReaddir(dir)) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith("@")) {
        for (const scoped of safeReaddir(path)) if (scoped.isDirectory()) addPackage(join(path, scoped.name));
      } else addPackage(path);
    }
  };
  const addPackage = (path) => {
    found.push(path);
    visit(join(path, "node_modules"));
  };
  visit(modules);
  return found;
}

function safeReaddir(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Bytes of the files under `dir` (`bytes`), and what they take on disk in allocated blocks (`diskBytes`, as du). */
function folderSize(dir) {
  let bytes = 0;
  let diskBytes = 0;
  const visit = (path) => {
    const stat = lstatSync(path);
    bytes += stat.isFile() ? stat.size : 0;
    diskBytes += stat.blocks * 512;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return { bytes, diskBytes };
}

// Run in the consumer project: the entry points as a user imports them, with no optional peer dependency installed.
const CHECK = `
const results = {};
try {
  const { createAgentSession, createToolRegistry, defineTool } = await import("toolwire");
  const add = defineTool({ name: "add", description: "Adds two numbers", execute: async ({ a, b }) => String(a + b),
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } });
  const session = createAgentSession({ registry: createToolRegistry({ custom: [add] }) });
  const result = await session.dispatch({ id: "toolu_1", name: "add", input: { a: 2, b: 3 } });
  results.root = result.content?.[0]?.text === "5" ? "ok" : "dispatch gave " + JSON.stringify(result);
} catch (error) { results.root = String(error?.code ?? "") + " " + error?.message; }
try {
  const { createBuiltinTools } = await import("toolwire/builtins");
  results.builtins = createBuiltinTools({ root: process.cwd() }).length > 0 ? "ok" : "no tools";
} catch (error) { results.builtins = String(error?.code ?? "") + " " + error?.message; }
try {
  await import("toolwire/mcp");
  results.mcp = "loaded without the MCP SDK";
} catch (error) { results.mcp = error?.code === "missing-peer-dependency" ? "ok" : String(error?.code) + " " + error?.message; }
console.log(JSON.stringify(results));
`;

/** The nearest `node_modules` above `dir`, if any: Node would resolve a package missing in the consumer from it. */
function ancestorModules(dir) {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, "node_modules"))) return join(current, "node_modules");
    if (dirname(current) === current) return undefined;
  }
}

/** A parent for the temporary folder with no node_modules above it, so the checks see only what was installed. */
function isolatedParent() {
  const candidates = [process.env.TOOLWIRE_FOOTPRINT_DIR, tmpdir(), "/var/tmp", "/dev/shm"].filter(Boolean);
  const parent = candidates.find((dir) => existsSync(dir) && ancestorModules(dir) === undefined);
  if (parent === undefined) {
    throw new Error(
      `every temporary folder has a node_modules above it (${candidates.map(ancestorModules).join(", ")}): ` +
        "set TOOLWIRE_FOOTPRINT_DIR to a folder with none",
    );
  }
  return parent;
}

export function measureFootprint({ keep = false } = {}) {
  const work = mkdtempSync(join(isolatedParent(), "toolwire-footprint-"));
  try {
    const packed = JSON.parse(
      execFileSync(npm, ["pack", "--json", "--pack-destination", work, ...quiet], { cwd: root, encoding: "utf8" }),
    );
    const tarball = join(work, packed[0].filename);
    const consumer = join(work, "consumer");
    mkdirSync(consumer);
    writeFileSync(
      join(consumer, "package.json"),
      `${JSON.stringify({ name: "footprint-consumer", private: true, type: "module" }, null, 2)}\n`,
    );
    execFileSync(npm, ["install", tarball, ...quiet], { cwd: consumer, stdio: ["ignore", "ignore", "inherit"] });
    const modules = join(consumer, "node_modules");
    const packages = packageFolders(modules).map((path) => relative(modules, path).replaceAll("\\", "/"));
    writeFileSync(join(consumer, "check.mjs"), CHECK);
    const checks = JSON.parse(execFileSync(process.execPath, ["check.mjs"], { cwd: consumer, encoding: "utf8" }));
    return {
      packages: packages.length,
      ...folderSize(modules),
      tarballBytes: packed[0].size,
      unpackedBytes: packed[0].unpackedSize,
      names: packages.sort(),
      checks,
      ...(keep ? { folder: work } : {}),
    };
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

/** In MiB, as `du -sh` shows sizes. */
const mebibytes = (bytes) => (bytes / 2 ** 20).toFixed(2);

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = measureFootprint({ keep: process.argv.includes("--keep") });
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(
      `installing toolwire alone: ${result.packages} packages, ${mebibytes(result.diskBytes)} MiB on disk ` +
        `(${mebibytes(result.bytes)} MiB of files; the tarball ${mebibytes(result.tarballBytes)} MiB)`,
    );
    console.log(`packages: ${result.names.join(", ")}`);
    console.log(
      `without optional peers: ${Object.entries(result.checks)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    if (result.folder !== undefined) console.log(`kept: ${result.folder}`);
  }
}
