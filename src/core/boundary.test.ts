// The core stays pure: it imports only its own files and node: built-ins.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const coreDir = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

describe("core boundary", () => {
  it("imports nothing outside src/core except node: built-ins", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(coreDir)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? "";
        if (specifier.startsWith("node:")) continue;
        const inside =
          specifier.startsWith(".") && !relative(coreDir, resolve(dirname(file), specifier)).startsWith("..");
        if (!inside) offenders.push(`${relative(coreDir, file)} imports ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("keeps the four jobs in one direction: filter, register and wrap never import dispatch", () => {
    const offenders: string[] = [];
    for (const job of ["filter", "register", "wrap"]) {
      for (const file of sourceFiles(join(coreDir, job))) {
        const text = readFileSync(file, "utf8");
        for (const match of text.matchAll(IMPORT)) {
          const specifier = match[1] ?? match[2] ?? "";
          const target = relative(coreDir, resolve(dirname(file), specifier));
          if (target.startsWith("dispatch")) offenders.push(`${relative(coreDir, file)} imports ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("finds the imports it checks (the scan is not vacuous)", () => {
    const text = readFileSync(join(coreDir, "dispatch", "session.ts"), "utf8");
    expect([...text.matchAll(IMPORT)].length).toBeGreaterThan(3);
  });
});
