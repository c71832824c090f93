// runProgram in a process of its own (the built package): the engine's peers missing, what a plain program loads, and
// an idle worker that never keeps the process alive.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "../../../test/e2e/helpers/build.js";
import { runToEnd } from "../../../test/support/run-to-end.js";

const RECORD = new URL("../../../test/support/record-loaded-modules.mjs", import.meta.url).pathname;
/** `--import` it: the optional peers, the engine's three packages among them, resolve as if not installed. */
const hideEngine = new URL("../../../test/support/hide-optional-peers.mjs", import.meta.url).pathname;

let engineFolder: string;
let temp: string;
beforeAll(async () => {
  engineFolder = dirname(builtScript("dist/code-mode/engine/run-program.js"));
  temp = await mkdtemp(join(tmpdir(), "code-mode-engine-"));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

/** Runs an ES module's text in a child Node beside the built engine; resolves with its stdout as JSON. */
async function runChild(code: string, nodeOptions: string[] = [], env: Record<string, string> = {}) {
  const run = await runToEnd(process.execPath, [...nodeOptions, "--input-type=module", "-e", code], {
    cwd: engineFolder,
    env: { ...process.env, ...env },
    timeoutMs: 30_000,
    what: "node running a program",
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const PROGRAM_OF = (code: string) => `
  const { runProgram } = await import("./run-program.js");
  const limits = { timeoutMs: 10000, memoryBytes: 32 * 1024 * 1024, maxToolCalls: 10, maxOutputChars: 1000 };
  const outcome = await runProgram({ code: ${JSON.stringify(code)}, limits, callTools: () => [] }).outcome;`;

describe("without the engine's packages", () => {
  it("the module loads, and running a program or warming up throws missing-peer-dependency", async () => {
    const result = await runChild(
      `const { runProgram, warmUpEngine } = await import("./run-program.js");
      const seen = {};
      try { runProgram({ code: "return 1", limits: {}, callTools: () => [] }); } catch (error) {
        seen.run = { name: error.name, code: error.code, packages: error.packages, message: error.message };
      }
      await warmUpEngine().catch((error) => { seen.warm = error.code; });
      console.log(JSON.stringify(seen));`,
      ["--import", hideEngine],
    );
    expect(result).toEqual({
      run: {
        name: "MissingPeerDependencyError",
        code: "missing-peer-dependency",
        packages: ["quickjs-emscripten-core", "@jitl/quickjs-ng-wasmfile-release-sync", "@swc/wasm-typescript"],
        message:
          "code mode needs quickjs-emscripten-core, @jitl/quickjs-ng-wasmfile-release-sync and @swc/wasm-typescript: " +
          "npm install quickjs-emscripten-core @jitl/quickjs-ng-wasmfile-release-sync @swc/wasm-typescript",
      },
      warm: "missing-peer-dependency",
    });
  });
});

describe("in a process of its own", () => {
  it("a plain JavaScript program never loads the TypeScript stripper; a TypeScript one does", async () => {
    const plainLog = join(temp, "plain.log");
    const plain = await runChild(
      `${PROGRAM_OF("const a = [1, 2]; return a.length;")} console.log(JSON.stringify(outcome));`,
      ["--import", RECORD],
      {
        TOOLWIRE_MODULE_LOG: plainLog,
      },
    );
    expect(plain).toMatchObject({ kind: "returned", output: "2" });
    const plainModules = await readFile(plainLog, "utf8");
    expect(plainModules).toContain("quickjs-emscripten-core");
    expect(plainModules).not.toContain("@swc/wasm-typescript");

    const typedLog = join(temp, "typed.log");
    const typed = await runChild(
      `${PROGRAM_OF("const a: number[] = [1, 2]; return a.length;")} console.log(JSON.stringify(outcome));`,
      ["--import", RECORD],
      {
        TOOLWIRE_MODULE_LOG: typedLog,
      },
    );
    expect(typed).toMatchObject({ kind: "returned", output: "2" });
    expect(await readFile(typedLog, "utf8")).toContain("@swc/wasm-typescript");
  });

  it("runs a program in a host started with a script as text and a V8 option (which a worker refuses if given)", async () => {
    const result = await runChild(`${PROGRAM_OF("return 6 * 7;")} console.log(JSON.stringify(outcome));`, [
      "--max-old-space-size=512",
    ]);
    expect(result).toMatchObject({ kind: "returned", output: "42" });
  });

  it("exits on its own after a program: the idle worker kept warm does not hold it", async () => {
    const started = performance.now();
    const result = await runChild(
      `${PROGRAM_OF("return 'done';")}
      const { warmUpEngine } = await import("./run-program.js");
      await warmUpEngine({ memoryBytes: 16 * 1024 * 1024 });
      console.log(JSON.stringify(outcome));`,
    );
    expect(result).toMatchObject({ kind: "returned", output: "done" });
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
