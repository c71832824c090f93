// Vitest sequencer: the files that take longest start first. Vitest orders files by how long they took last time,
// but a fresh clone has no such record and gets them by size, so a small file that waits a minute (the gateway's
// memory test) could start last and stretch the whole run by its length.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest files, slowest first (as measured on a 2-core machine); the others follow in vitest's order. */
const SLOW_FILES = [
  "test/e2e/entry-points.test.ts",
  "test/e2e/gateway-session-memory.test.ts",
  "test/conformance/client.conformance.test.ts",
  "test/e2e/cli-plan.test.ts",
  "test/e2e/commonjs-consumer.test.ts",
  "test/e2e/cli-run.test.ts",
  "test/e2e/optional-peers.test.ts",
  "test/e2e/quick-start.test.ts",
];

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.indexOf(relative(file.project.config.root, file.moduleId));
      return index === -1 ? SLOW_FILES.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
