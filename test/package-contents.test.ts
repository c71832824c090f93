// What `npm pack` puts in the tarball: the build, the docs, the license, the examples; no source maps, tests or
// benchmarks, and of the declarations only those the entry points' types reach, and no module of types only.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "./e2e/helpers/build.js";

const root = resolve(import.meta.dirname, "..");

let files: string[];
beforeAll(async () => {
  builtScript("dist/index.js");
  // --ignore-scripts: list what would ship without running `prepack` (a build).
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
  });
  files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
}, 60_000);

describe("the npm package", () => {
  it("ships the license, the README and every page of docs/", async () => {
    const pages = (await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md"));
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
    expect(files).toEqual(expect.arrayContaining(pages.map((page) => `docs/${page}`)));
  });

  it("ships every file the exports map and the bin name", async () => {
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    const targets = new Set<string>([manifest.main, manifest.types, ...Object.values<string>(manifest.bin)]);
    for (const entry of Object.values<string | Record<string, string>>(manifest.exports)) {
      for (const target of typeof entry === "string" ? [entry] : Object.values(entry)) targets.add(target);
    }
    expect(files).toEqual(expect.arrayContaining([...targets].map((target) => target.replace(/^\.\//, ""))));
  });

  it("ships no source maps, no tests, no benchmarks and no fixtures outside examples/", () => {
    expect(files.filter((path) => path.endsWith(".map"))).toEqual([]);
    expect(files.filter((path) => /\.test(-d)?\.[cm]?[jt]s$/.test(path))).toEqual([]);
    const outside = files.filter(
      (path) =>
        !/^(dist|docs|examples|schema)\//.test(path) && !["LICENSE", "README.md", "package.json"].includes(path),
    );
    expect(outside).toEqual([]);
  });

  it("ships the declarations the entry points' types reach, every one they import, and no other", async () => {
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    const shipped = files.filter((path) => /\.d\.c?ts$/.test(path));
    const pending: string[] = [manifest.types, ...shipped.filter((path) => path.endsWith(".d.cts"))];
    for (const entry of Object.values<string | Record<string, string>>(manifest.exports)) {
      if (typeof entry === "object" && entry.types !== undefined) pending.push(entry.types);
    }
    const reached = new Set<string>();
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      path = relative(root, resolve(root, path));
      if (reached.has(path)) continue;
      reached.add(path);
      const text = await readFile(join(root, path), "utf8");
      for (const [, specifier = ""] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.[^"']*)["']/g)) {
        pending.push(join(dirname(path), specifier.replace(/\.js$/, ".d.ts").replace(/\.cjs$/, ".d.cts")));
      }
    }
    // The CLI's and the internal helpers' declarations are reached by no entry point: a consumer's compiler never reads
    // them, and each would cost a disk block in every install.
    expect(reached.size).toBeGreaterThan(100);
    expect([...reached].filter((path) => !shipped.includes(path))).toEqual([]);
    expect(shipped.filter((path) => !reached.has(path))).toEqual([]);
  });

  it("ships no JavaScript of a module of types only (no module imports one: it would never load)", async () => {
    const typesOnly: string[] = [];
    for (const path of files.filter((name) => /\.c?js$/.test(name))) {
      const code = (await readFile(join(root, path), "utf8")).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
      if (code.replace(/\s/g, "") === "export{};") typesOnly.push(path);
    }
    expect(typesOnly).toEqual([]);
  });

  it("has no script npm runs when a consumer installs it (the dev scripts name files it does not ship)", {
    timeout: 60_000,
  }, async () => {
    // The package.json the tarball holds, as a consumer's npm reads it.
    const folder = await mkdtemp(join(tmpdir(), "toolwire-pack-"));
    const run = promisify(execFile);
    let scripts: Record<string, string>;
    try {
      const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", folder], {
        cwd: root,
      });
      const tarball = join(folder, (JSON.parse(stdout) as [{ filename: string }])[0].filename);
      const manifest = await run("tar", ["-xzOf", tarball, "package/package.json"], { maxBuffer: 1 << 20 });
      scripts = (JSON.parse(manifest.stdout) as { scripts: Record<string, string> }).scripts;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // The scripts npm runs for a dependency (npm 11 warns on each); `prepublish` ran on install up to npm 6.
    const onInstall = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare", "prepublish"];
    expect(Object.keys(scripts).filter((name) => onInstall.includes(name))).toEqual([]);
  });
});
