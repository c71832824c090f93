// Run by `npm run build` after tsc: removes from dist/ what no consumer reads, as each file costs a disk block in every
// install: the declaration files no entry point's types reach (the CLI's, the internal helpers'), and the JavaScript of
// modules of types only (`export {};`) that no module imports. Fails if a declaration that stays imports one that does
// not exist.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const dist = join(root, "dist");

/** Relative module specifiers in a declaration file: `from "…"`, `import("…")`, `import "…"`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.[^"']*)["']/g;
/** Relative paths a JavaScript module names: specifiers as above, `require("…")`, `new URL("…", import.meta.url)`. */
const MODULE_PATH = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bURL\s*\(\s*)["'](\.[^"']*)["']/g;

/** The declaration a relative specifier in `file` names: `./x.js` is typed by `./x.d.ts`, `./x.cjs` by `./x.d.cts`. */
function declarationOf(file, specifier) {
  const target = resolve(dirname(file), specifier);
  return target.replace(/\.js$/, ".d.ts").replace(/\.cjs$/, ".d.cts");
}

/** The declaration files the package's entry points name: every `types` in the exports map, and the top `types`. */
function entryDeclarations() {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entries = new Set([manifest.types]);
  for (const target of Object.values(manifest.exports)) {
    if (typeof target === "object" && target !== null && typeof target.types === "string") entries.add(target.types);
  }
  return [...entries].map((entry) => resolve(root, entry));
}

const declarations = readdirSync(dist, { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".d.ts") || name.endsWith(".d.cts"))
  .map((name) => join(dist, name));
// A CommonJS entry's `.d.cts` sits beside the `.cjs` its `require` condition names.
const pending = [...entryDeclarations(), ...declarations.filter((file) => file.endsWith(".d.cts"))];
const reached = new Set();
for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
  if (reached.has(file)) continue;
  if (!existsSync(file)) throw new Error(`prune-dist: ${file} is named by the package's types but missing`);
  reached.add(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER))
    pending.push(declarationOf(file, specifier));
}
for (const file of declarations) if (!reached.has(file)) rmSync(file);

// A module of types only compiles to `export {};` under its opening comment; one that no module imports never loads.
const scripts = readdirSync(dist, { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".js") || name.endsWith(".cjs"))
  .map((name) => join(dist, name));
const imported = new Set();
for (const file of scripts) {
  // Block comments left out: a JSDoc type such as `import("./protocol.js").X` loads nothing.
  const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  for (const [, path] of code.matchAll(MODULE_PATH)) imported.add(resolve(dirname(file), path));
}
const typesOnly = (file) =>
  readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "")
    .replace(/\s/g, "") === "export{};";
for (const file of scripts) if (!imported.has(file) && typesOnly(file)) rmSync(file);
