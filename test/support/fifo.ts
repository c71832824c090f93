// FIFOs for tests: made with the system's mkfifo, read by a real child process (at full speed or slowly).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";

/** Whether a FIFO test must run: mkfifo is here, or CI says everything must run. */
export const FIFO_RUNS = spawnSync("mkfifo", ["--version"]).status === 0 || process.env.CI === "true";

/** Makes a FIFO at `path` (mode 0600). */
export function makeFifo(path: string): string {
  execFileSync("mkfifo", ["-m", "600", path]);
  return path;
}

/** Reads `fifo` into `out`: `chunk` bytes at most every `pauseMs` (0: as fast as it comes). Ends when writers close. */
export function readFifo(fifo: string, out: string, options: { chunk?: number; pauseMs?: number } = {}) {
  const script = `
    const { createReadStream, appendFileSync, writeFileSync } = require("node:fs");
    const [fifo, out, pauseMs, chunk] = process.argv.slice(1);
    writeFileSync(out, "");
    const stream = createReadStream(fifo, { highWaterMark: Number(chunk) });
    stream.on("data", (data) => {
      appendFileSync(out, data);
      if (Number(pauseMs) > 0) {
        stream.pause();
        setTimeout(() => stream.resume(), Number(pauseMs));
      }
    });`;
  const child: ChildProcess = spawn(
    process.execPath,
    ["-e", script, fifo, out, String(options.pauseMs ?? 0), String(options.chunk ?? 65_536)],
    { stdio: "ignore" },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    /** Resolves with the exit code once the reader has read to the end. */
    exited,
    /** Stops the reader (by its pid). */
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
