// Every TypeScript or JavaScript block of README.md and docs/ runs in a test as written or is marked as a fragment;
// the blocks marked for this file run here, each in a fresh project that has the packages it imports.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { cliEnv } from "./e2e/helpers/cli.js";
import { createConsumerProject, importedPackages } from "./support/consumer-project.js";
import { type DocBlock, docPages, PROGRAM_LANGS, readDocBlocks } from "./support/doc-blocks.js";
import { runToEnd } from "./support/run-to-end.js";

const root = resolve(import.meta.dirname, "..");
const THIS_TEST = "test/docs-code.test.ts";

/** docs/reference.md is generated from the source (scripts/api-reference.mjs): its blocks are signatures, pinned by test/public-api.test.ts. */
const GENERATED_PAGES = new Set(["docs/reference.md"]);

const programs = docPages()
  .filter((page) => !GENERATED_PAGES.has(page))
  .flatMap((page) => readDocBlocks(page))
  .filter((block) => PROGRAM_LANGS.has(block.lang));
const where = (block: DocBlock) => `${block.page}:${block.line}`;

/** Whether a block only declares shapes (`interface` and `type` declarations), which nothing runs. */
function declaresShapesOnly(block: DocBlock): boolean {
  const file = ts.createSourceFile("block.ts", block.code, ts.ScriptTarget.Latest);
  return file.statements.every(
    (statement) => ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement),
  );
}

describe("code blocks of README.md and docs/", () => {
  it("every TypeScript or JavaScript block is run by a test or marked as a fragment", () => {
    const unmarked = programs.filter((block) => block.marker.kind === "none" && !declaresShapesOnly(block)).map(where);
    expect(unmarked).toEqual([]);
  });

  it("each block marked as run names a test that exists and reads that page", () => {
    const wrong: string[] = [];
    for (const block of programs) {
      if (block.marker.kind !== "runs") continue;
      const test = join(root, block.marker.test);
      if (!existsSync(test)) wrong.push(`${where(block)}: no ${block.marker.test}`);
      else if (block.marker.test !== THIS_TEST && !readFileSync(test, "utf8").includes(block.page))
        wrong.push(`${where(block)}: ${block.marker.test} does not read ${block.page}`);
    }
    expect(wrong).toEqual([]);
  });

  it("each fragment says why it does not run", () => {
    const silent = programs.filter((block) => block.marker.kind === "fragment" && block.marker.reason === "");
    expect(silent.map(where)).toEqual([]);
  });

  const ranHere = programs.filter((block) => block.marker.kind === "runs" && block.marker.test === THIS_TEST);
  it.concurrent.each(ranHere.map((block) => [where(block), block] as const))(
    "%s runs as written and exits 0",
    { timeout: 60_000 },
    async (_name, block) => {
      const source =
        block.lang === "ts" || block.lang === "typescript" || block.lang === "tsx"
          ? ts.transpileModule(block.code, {
              compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
            }).outputText
          : block.code;
      const packages = importedPackages(block.code).filter((name) => name !== "toolwire");
      const project = await createConsumerProject({
        packages,
        files: {
          "package.json": `${JSON.stringify({ name: "docs-block", version: "1.0.0", type: "module" })}\n`,
          "block.mjs": source,
        },
      });
      try {
        const run = await runToEnd(process.execPath, ["block.mjs"], {
          cwd: project.path,
          env: cliEnv(),
          timeoutMs: 45_000,
          what: where(block),
        });
        expect(run, `${where(block)} printed:\n${run.stdout}\n${run.stderr}`).toMatchObject({ code: 0, signal: null });
      } finally {
        await project.remove();
      }
    },
  );
});
