// What `npm pack` puts in the tarball: the build, the docs, the license, the examples; no source maps, tests or benchmarks.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "./e2e/helpers/build.js";

const root = resolve(import.meta.dirname, "..");

let files: string[];
beforeAll(async () => {
  builtScript("dist/index.js");
  // --ignore-scripts: list what would ship without running `prepare`.
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
});
