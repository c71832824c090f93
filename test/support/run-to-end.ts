// Runs a process to its end for a test: stdin closed, stdout and stderr collected, killed when it runs over its time.
import { spawn } from "node:child_process";

/** How a process ended, and what it printed. */
export interface ProcessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Resolves when `command` exits; rejects (after SIGKILL) when it has not within `timeoutMs`, with what it printed. */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: {
    readonly cwd?: string;
    readonly env: NodeJS.ProcessEnv;
    readonly timeoutMs: number;
    readonly what: string;
  },
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`${options.what} did not finish in ${options.timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
