// docs/providers.md's generation-options recipe runs as written against the built package: every option it shows passes the clients' checks.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

describe("docs/providers.md", () => {
  it("the generation-options recipe creates its four clients and prints what it promises", async () => {
    const page = await readFile(join(root, "docs", "providers.md"), "utf8");
    const block = /<!-- runs: test\/providers-doc.test.ts -->\s*```js\n([\s\S]*?)```/.exec(page)?.[1];
    expect(block).toBeDefined();
    const promised = /^\/\/ (openai:.*)$/m.exec(block as string)?.[1];
    const entry = pathToFileURL(join(root, "dist", "index.js")).href;
    const dir = await mkdtemp(join(tmpdir(), "toolwire-providers-doc-"));
    try {
      const file = join(dir, "model-options.mjs");
      await writeFile(file, (block as string).replace('from "toolwire"', `from ${JSON.stringify(entry)}`));
      const { stdout } = await promisify(execFile)(process.execPath, [file]);
      expect(stdout.trim()).toBe(promised);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
