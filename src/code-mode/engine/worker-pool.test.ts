// workerExecArgv: a worker gets the host's Node options, less those of a main script given as text.
import { describe, expect, it } from "vitest";
import { workerExecArgv } from "./worker-pool.js";

describe("workerExecArgv", () => {
  it("drops -e, -p and --input-type with their values, and keeps the rest", () => {
    expect(
      workerExecArgv(["--import", "./hook.mjs", "--input-type=module", "-e", "code", "--conditions=dev", "-p", "1"]),
    ).toEqual(["--import", "./hook.mjs", "--conditions=dev"]);
    expect(workerExecArgv(["--eval=code", "--print=1", "--enable-source-maps"])).toEqual(["--enable-source-maps"]);
  });
});
