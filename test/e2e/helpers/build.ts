// Builds dist/ once when it is older than src/, so tests can spawn the compiled scripts (the gateway, the CLI).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The absolute path of a compiled file (relative to the package root), dist/ built first if it is older than src/. */
export function builtScript(relativePath: string): string {
  const script = join(root, relativePath);
  let built = 0;
  try {
    built = statSync(script).mtimeMs;
  } catch {
    // not built yet
  }
  if (built < newestMtime(join(root, "src"))) {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
  }
  return script;
}
