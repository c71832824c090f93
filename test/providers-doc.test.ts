// docs/providers.md's generation-options recipe runs as written against the built package: every option it shows passes the clients' checks.
import { describe, expect, it } from "vitest";
import { cliEnv } from "./e2e/helpers/cli.js";
import { createConsumerProject } from "./support/consumer-project.js";
import { readDocBlocks } from "./support/doc-blocks.js";
import { runToEnd } from "./support/run-to-end.js";

const PAGE = "docs/providers.md";
const THIS_TEST = "test/providers-doc.test.ts";

describe(PAGE, () => {
  it("the generation-options recipe creates its four clients and prints what it promises", async () => {
    const block = readDocBlocks(PAGE).find((each) => each.marker.kind === "runs" && each.marker.test === THIS_TEST);
    expect(block).toBeDefined();
    const code = block?.code ?? "";
    const promised = /^\/\/ (openai:.*)$/m.exec(code)?.[1];
    const project = await createConsumerProject({ files: { "model-options.mjs": code } });
    try {
      const run = await runToEnd(process.execPath, ["model-options.mjs"], {
        cwd: project.path,
        env: cliEnv(),
        timeoutMs: 30_000,
        what: "the generation-options recipe",
      });
      expect(run, run.stderr).toMatchObject({ code: 0, signal: null });
      expect(run.stdout.trim()).toBe(promised);
    } finally {
      await project.remove();
    }
  });
});
