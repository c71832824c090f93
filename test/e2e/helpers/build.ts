// Builds dist/ once when it is older than src/, so tests can spawn the compiled scripts (the gateway, the CLI), and the
// inspector's page (Vite) when it is older than its sources.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

function newestMtime(
  dir: string,
  // .js too: code mode's worker script is plain JavaScript in src/.
  counts = (name: string) => (name.endsWith(".ts") || name.endsWith(".js")) && !name.endsWith(".test.ts"),
): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, counts));
    else if (counts(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0; // not built yet
  }
}

/** The absolute path of a compiled file (relative to the package root), dist/ built first if it is older than src/. */
export function builtScript(relativePath: string): string {
  const script = join(root, relativePath);
  if (mtimeOf(script) < newestMtime(join(root, "src"))) {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
    // As `npm run build` does: dist/ keeps only what a consumer reads, as the package ships it.
    execFileSync(process.execPath, [join(root, "scripts", "prune-dist.mjs")], { cwd: root, stdio: "inherit" });
  }
  return script;
}

/**
 * The folder of the inspector's built page (dist/inspector/page), built first (`npm run build:inspector`, as
 * `npm run build` does) when it is older than its sources in src/inspector/page.
 */
export function builtInspectorPage(): string {
  const sources = join(root, "src", "inspector");
  const page = join(root, "dist", "inspector", "page");
  const newest = Math.max(
    newestMtime(join(sources, "page"), () => true),
    statSync(join(sources, "types.ts")).mtimeMs,
  );
  if (mtimeOf(join(page, "index.html")) < newest) {
    execFileSync("npm", ["run", "build:inspector", "--silent"], { cwd: root, stdio: "inherit" });
  }
  return page;
}
