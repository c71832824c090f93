// The README's quick-start block runs as written against the built package.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

describe("README", () => {
  it("the quick-start example prints the tool_result it promises", async () => {
    const readme = await readFile(join(root, "README.md"), "utf8");
    const block = /<!-- quick-start[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const entry = pathToFileURL(join(root, "dist", "index.js")).href;
    const dir = await mkdtemp(join(tmpdir(), "toolwire-readme-"));
    try {
      const file = join(dir, "quick-start.mjs");
      await writeFile(file, (block as string).replace('from "toolwire"', `from ${JSON.stringify(entry)}`));
      const { stdout } = await promisify(execFile)(process.execPath, [file]);
      expect(stdout).toContain("tool_use_id: 'toolu_1'");
      expect(stdout).toContain("text: '5'");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
