// Runs the compiled `toolwire` command as a user does: a child process in a temp folder with real files.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { type ProcessRun, runToEnd } from "../../support/run-to-end.js";
import { builtScript } from "./build.js";

/** The compiled CLI entry point (built first when dist/ is older than src/). */
export const CLI = builtScript("dist/cli/main.js");

/** What a finished command left behind. */
export type CliResult = ProcessRun;

/** Variables that change what the CLI does; no test inherits them from the machine running the suite. */
const CLI_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_MODEL",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "TOOLWIRE_MODEL",
  "TOOLWIRE_OAUTH_DIR",
  "TOOLWIRE_NO_BROWSER",
  "TOOLWIRE_SERVE_TOKEN",
  "NO_COLOR",
  "FORCE_COLOR",
  "CI",
];

/** The test process's environment without the CLI's variables, plus `extra`. */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !CLI_VARIABLES.includes(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs `node dist/cli/main.js ...args` in `cwd` and resolves when it exits (stdin closed at once). */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliResult> {
  return runToEnd(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: options.env ?? cliEnv(),
    timeoutMs: options.timeoutMs ?? 45_000,
    what: `toolwire ${args.join(" ")}`,
  });
}

/** A temp folder (its real path) with the given files written into it; `remove()` deletes it. */
export async function tempWorkspace(
  files: Record<string, string> = {},
  prefix = "toolwire-cli-",
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  await writeFiles(path, files);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Writes `files` (relative paths to text) under `root`, creating folders. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const file = resolve(root, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/** True when the text holds an ANSI escape sequence. */
export function hasAnsi(text: string): boolean {
  return text.includes("\u001b[");
}

/** The built-in tools' names, sorted. */
export const BUILTIN_NAMES = ["bash", "edit", "find", "grep", "ls", "read", "write"];

/** Whether `script` (util-linux) can give the CLI a terminal here. */
export const CAN_RUN_IN_TERMINAL = process.platform === "linux" && existsSync("/usr/bin/script");

/**
 * Starts the CLI on a pseudo-terminal (through `script`): its stdin, stdout and stderr are the terminal, and the
 * child's stdout carries both streams, as a screen would; what is written to the child's stdin is typed there.
 * The shell `script` runs replaces itself with the CLI (`exec`), so Ctrl-C reaches the CLI alone: a shell left waiting
 * (dash, when SHELL is unset) would take the SIGINT too and end with 130 whatever the CLI does.
 */
export function spawnInTerminal(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): ChildProcessByStdio<Writable, Readable, Readable> {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = `exec ${[process.execPath, CLI, ...args].map(quote).join(" ")}`;
  return spawn("/usr/bin/script", ["-qec", command, "/dev/null"], {
    cwd: options.cwd,
    env: { ...(options.env ?? cliEnv()), TERM: "xterm-256color", SHELL: "/bin/sh" },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Runs the CLI with a pseudo-terminal as stdin, stdout and stderr (through `script`); the output is both streams. */
export function runCliInTerminal(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnInTerminal(args, options);
    child.stdin.end(); // nothing is typed: the terminal reads end of file
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolvePromise({ code, signal, stdout, stderr: "" }));
  });
}

/** A CLI process left running: what it printed so far, a wait for a line, and a stop by its PID. */
export interface RunningCli {
  readonly pid: number;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the first match of `pattern` in stderr (waiting for it); rejects when the process exits first or after `timeoutMs`. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves when the process has exited, with its code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (default SIGTERM) to the process by its PID, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node dist/cli/main.js ...args` in `cwd` (stdin closed) and leaves it running. */
export function startCli(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: options.env ?? cliEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const listener of listeners) listener();
  });
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) => {
    child.on("close", (code, signal) => {
      done = true;
      for (const listener of listeners) listener();
      resolvePromise({ code, signal });
    });
  });
  return {
    pid: child.pid ?? 0,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStderr(pattern, timeoutMs = 15_000) {
      return new Promise((resolvePromise, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        const check = () => {
          const match = pattern.exec(stderr);
          if (match === null && !done) return;
          clearTimeout(timer);
          listeners.delete(check);
          if (match !== null) resolvePromise(match);
          else reject(new Error(`the CLI exited before ${pattern} showed\nstdout: ${stdout}\nstderr: ${stderr}`));
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = "SIGTERM", graceMs = 5_000) {
      if (!done && child.pid !== undefined) {
        process.kill(child.pid, signal);
        const timer = setTimeout(() => {
          if (!done && child.pid !== undefined) process.kill(child.pid, "SIGKILL");
        }, graceMs);
        const result = await exited;
        clearTimeout(timer);
        return result;
      }
      return exited;
    },
  };
}
