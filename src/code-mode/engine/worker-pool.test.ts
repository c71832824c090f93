// The engine's worker pool: a warm-up is shared with the first program; a worker gets the host's Node options, less
// those of a main script given as text.
import { describe, expect, it } from "vitest";
import {
  acquireEngineWorker,
  countEngineWorkers,
  releaseEngineWorker,
  warmEngineWorker,
  workerExecArgv,
} from "./worker-pool.js";

describe("warmEngineWorker", () => {
  it("a program that asks for a worker while one warms up takes that one: no second worker starts", async () => {
    const memoryBytes = 24 * 1024 * 1024; // a limit no other test of this file uses, so no worker is idle yet
    const before = countEngineWorkers();
    const warm = warmEngineWorker(memoryBytes);
    const worker = await acquireEngineWorker(memoryBytes);
    await warm;
    expect(countEngineWorkers()).toBe(before + 1);
    releaseEngineWorker(worker);
    await warmEngineWorker(memoryBytes); // one is idle: nothing starts
    expect(countEngineWorkers()).toBe(before + 1);
  });
});

describe("workerExecArgv", () => {
  it("drops -e, -p and --input-type with their values, and keeps the rest", () => {
    expect(
      workerExecArgv(["--import", "./hook.mjs", "--input-type=module", "-e", "code", "--conditions=dev", "-p", "1"]),
    ).toEqual(["--import", "./hook.mjs", "--conditions=dev"]);
    expect(workerExecArgv(["--eval=code", "--print=1", "--enable-source-maps"])).toEqual(["--enable-source-maps"]);
  });
});
