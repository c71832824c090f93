// docs/errors.md is the one place every error code is documented: each code union of the source, in its own section.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every `export type <Name>ErrorCode = "a" | "b"` of src/, by union name. */
function codeUnions(): Map<string, string[]> {
  const unions = new Map<string, string[]>();
  for (const file of sourceFiles(join(root, "src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(/export type (\w+ErrorCode) =([^;]*);/g)) {
      unions.set(
        match[1] as string,
        [...(match[2] as string).matchAll(/"([a-z0-9-]+)"/g)].map((code) => code[1] as string),
      );
    }
  }
  return unions;
}

/** docs/errors.md's codes by the union named in each `##` heading. */
function documentedCodes(): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  const text = readFileSync(join(root, "docs", "errors.md"), "utf8");
  for (const section of text.split(/^## /m).slice(1)) {
    const union = /\(`(\w+ErrorCode)`\)/.exec(section.split("\n")[0] as string)?.[1];
    if (union === undefined) continue;
    sections.set(
      union,
      [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((row) => row[1] as string),
    );
  }
  return sections;
}

describe("docs/errors.md", () => {
  const unions = codeUnions();
  const documented = documentedCodes();

  it("finds the code unions of the source", () => {
    expect(unions.size).toBeGreaterThan(10);
    expect(unions.get("ToolCallErrorCode")).toContain("invalid-input");
  });

  it("has a section for each code union, listing exactly its codes", () => {
    for (const [union, codes] of unions) {
      expect(documented.get(union), `docs/errors.md has no section for ${union}`).toBeDefined();
      expect([...(documented.get(union) ?? [])].sort(), union).toEqual([...codes].sort());
    }
  });

  it("documents no union the source does not have", () => {
    expect([...documented.keys()].filter((union) => !unions.has(union))).toEqual([]);
  });
});
