// What every command of `toolwire` is given: the output, the global options, its exit code, and the config's runtime.
import type { Command } from "commander";
import type { ApprovalOptions } from "../core/types.js";
import { CliError, EXIT_USAGE } from "./exit-codes.js";
import { type Output, paint } from "./output.js";
import type { Runtime } from "./runtime.js";

/** The options every command takes (`--config`, `--json`, `--no-color`). */
export interface GlobalOptions {
  config?: string;
  json?: boolean;
  color?: boolean;
}

/** How the config's runtime is opened for a command. */
interface OpenOptions {
  /** Connect the config's MCP servers (default true). */
  readonly connectMcp?: boolean;
  /** Route tools to the config's `executors` (default true); a worker runs every tool here and says false. */
  readonly remoteExecutors?: boolean;
  /** Answers the config's approvals. */
  readonly approver?: ApprovalOptions["approver"] | undefined;
}

/** One command's share of the program: what it reads, where it writes, and how it ends. */
export interface CliContext {
  /** The output, made on first use (its colour follows `--no-color`). */
  output(): Output;
  /** The global options as parsed. */
  globals(): GlobalOptions;
  /** The exit code the command ends with (default 0). */
  setExit(code: number): void;
  /** A one-line warning on stderr, in yellow on a terminal. */
  warn(message: string): void;
  /** The config's runtime, for the current folder and `--config`; the command closes it. */
  open(options?: OpenOptions): Promise<Runtime>;
  /**
   * An abort signal tied to Ctrl-C and to the output pipe closing: the first Ctrl-C stops the work cleanly, a second
   * one exits at once.
   */
  interruptSignal(): AbortSignal;
}

/** A command of `toolwire`: adds itself, its options and its action to the program. */
export type CliCommand = (program: Command, cli: CliContext) => void;

/**
 * The context of `program`'s commands. `outputClosed` aborts when stdout or stderr closes early
 * (`toolwire demo | head`): the work then stops and cleans up, as on Ctrl-C.
 */
export function createCliContext(
  program: Command,
  output: () => Output,
  setExit: (code: number) => void,
  outputClosed: AbortSignal,
): CliContext {
  const globals = () => program.opts<GlobalOptions>();
  const warn = (message: string) => output().error(paint(output(), "yellow", `toolwire: ${message}`));
  return {
    output,
    globals,
    setExit,
    warn,
    async open(options = {}) {
      const { connectMcp = true, remoteExecutors = true, approver } = options;
      const { createAuthorizationUrlShower } = await import("./show-authorization-url.js");
      const shower = createAuthorizationUrlShower({
        write: (text) => process.stderr.write(text),
        interactive: process.stderr.isTTY === true,
      });
      try {
        return await (await import("./runtime.js")).openRuntime({
          cwd: process.cwd(),
          ...(globals().config === undefined ? {} : { configPath: globals().config }),
          connectMcp,
          remoteExecutors,
          progress: (label, work) => output().progress(label, work),
          warn,
          onAuthorizationUrl: shower.show,
          ...(approver === undefined ? {} : { approver }),
        });
      } finally {
        shower.release();
      }
    },
    interruptSignal() {
      // Ctrl-C or SIGTERM stops the work and lets it clean up (a demo's temporary workspace); a second one exits.
      const controller = new AbortController();
      process.once("SIGINT", () => {
        controller.abort(new Error("interrupted (Ctrl-C)"));
        process.once("SIGINT", () => process.exit(130));
      });
      process.once("SIGTERM", () => {
        controller.abort(new Error("terminated (SIGTERM)"));
        process.once("SIGTERM", () => process.exit(143));
      });
      return AbortSignal.any([controller.signal, outputClosed]);
    },
  };
}

/** Parses a port option (0 to 65535; 0 is any free port); a bad one is a usage error naming `flag`. */
export function portOption(flag: string): (value: string) => number {
  return (value) => {
    const port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new CliError(EXIT_USAGE, `${flag} needs a port number, got ${value}`);
    return port;
  };
}

/** Parses a count option (an integer of 1 or more); a bad one is a usage error naming `flag`. */
export function positiveIntegerOption(flag: string): (value: string) => number {
  return (value) => {
    const count = Number(value);
    if (!Number.isInteger(count) || count < 1)
      throw new CliError(EXIT_USAGE, `${flag} must be a positive integer, got ${value}`);
    return count;
  };
}
