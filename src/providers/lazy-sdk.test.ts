// The provider SDKs load only when a model client runs its first turn, and never leak into toolwire's types.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const SDKS = /^(openai|@anthropic-ai\/sdk)(\/|$)/;
const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["']([^"']+)["']\s*\)/g;

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, suffix);
    return entry.name.endsWith(suffix) && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("provider SDKs", () => {
  it("are imported only dynamically, so importing toolwire never loads them", () => {
    const sources = [
      ...files(join(srcDir, "providers"), ".ts"),
      ...files(join(srcDir, "loop"), ".ts"),
      join(srcDir, "index.ts"),
    ];
    const offenders: string[] = [];
    let dynamic = 0;
    for (const file of sources) {
      const text = readFileSync(file, "utf8");
      for (const [, specifier] of text.matchAll(STATIC_IMPORT)) {
        if (SDKS.test(specifier ?? "")) offenders.push(`${relative(srcDir, file)} imports ${specifier} statically`);
      }
      for (const [, specifier] of text.matchAll(DYNAMIC_IMPORT)) if (SDKS.test(specifier ?? "")) dynamic++;
    }
    expect(offenders).toEqual([]);
    expect(dynamic).toBe(4); // each client loads its SDK on first use (and types it from the same import)
  });

  it.skipIf(!existsSync(join(srcDir, "..", "dist", "providers")))("stay out of the built declaration files", () => {
    const declarations = [
      ...files(join(srcDir, "..", "dist", "providers"), ".d.ts"),
      ...files(join(srcDir, "..", "dist", "loop"), ".d.ts"),
    ];
    expect(declarations.length).toBeGreaterThan(5);
    const leaks = declarations.filter((file) =>
      /(?:from|import\()\s*["'](openai|@anthropic-ai\/sdk)/.test(readFileSync(file, "utf8")),
    );
    expect(leaks).toEqual([]);
  });
});
