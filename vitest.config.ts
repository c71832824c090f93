import { defineConfig } from "vitest/config";
import { SlowFilesFirst } from "./test/support/slow-files-first.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, every file in turn. Most of the
    // slow files wait on child processes and servers (MCP servers, the CLI, redis-server, chromium), so three
    // workers keep both cores busy: the suite took 413 s with one and 232 s with three on 2 cores.
    maxWorkers: 3,
    hookTimeout: 30_000,
    globalSetup: ["test/support/own-temp-folder.ts"],
    sequence: { sequencer: SlowFilesFirst },
  },
});
