#!/usr/bin/env node
// The `toolwire` command: demo, plan, explain, pin, call, run, auth, serve, inspect and worker, all reading
// toolwire.config.json. Each command adds itself from ./commands/<name>.ts; this file holds the program, the table
// of commands, and the mapping of every failure to an exit code.
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { describeThrown } from "../core/errors.js";
import { type CliCommand, createCliContext, type GlobalOptions } from "./cli-context.js";
import { registerAuth } from "./commands/auth.js";
import { registerCall } from "./commands/call.js";
import { registerDemo } from "./commands/demo.js";
import { registerExplain } from "./commands/explain.js";
import { registerInspect } from "./commands/inspect.js";
import { registerPin } from "./commands/pin.js";
import { registerPlan } from "./commands/plan.js";
import { registerRun } from "./commands/run.js";
import { registerServe } from "./commands/serve.js";
import { registerWorker } from "./commands/worker.js";
import { CliError, EXIT_CONFIG, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import { jsonError } from "./json-output.js";
import { createOutput, type Output, paint } from "./output.js";

// The commands' work, the config loader and the providers are imported when a command runs, not at start:
// `--help` and usage errors then answer in about a third of the time.

/** The commands, in the order `--help` lists them. */
const COMMANDS: readonly CliCommand[] = [
  registerDemo,
  registerPlan,
  registerExplain,
  registerPin,
  registerCall,
  registerRun,
  registerAuth,
  registerServe,
  registerInspect,
  registerWorker,
];

const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Aborts when the output pipe closes (`toolwire demo | head`): the work stops and cleans up, as on Ctrl-C. */
const outputClosed = new AbortController();

/** Builds the program; `run(argv)` below parses and maps every failure to an exit code. */
function buildProgram(output: () => Output, setExit: (code: number) => void): Command {
  const program = new Command("toolwire")
    .description("The tool system of an AI agent: see which tools a model gets and why, call them, run an agent.")
    .version(version)
    .option("-c, --config <file>", "config file (default: ./toolwire.config.json if present)")
    .option("--json", "machine-readable output")
    .option("--no-color", "no colour, even on a terminal")
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      "after",
      `
Exit codes:
  0  done (a run completed, a tool call succeeded, the tool is available)
  1  the work failed (a tool error, a run that did not complete, an unavailable tool)
  2  usage (an unknown command or option, a bad model spec, no model)
  3  config (the file is not a regular file, too large, not JSON or invalid, the file
     named by --config is missing, or the workspace folder does not exist)

Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_MODEL    run uses anthropic:$ANTHROPIC_MODEL when the key is set
  OPENAI_API_KEY, OPENAI_BASE_URL,      otherwise openai:$OPENAI_MODEL (default gpt-4.1) when
  OPENAI_MODEL                          either is set; OPENAI_BASE_URL names a local server
  TOOLWIRE_MODEL                        the model spec for run, like --model
  TOOLWIRE_OAUTH_DIR                    where MCP OAuth tokens are kept (default
                                        $XDG_CONFIG_HOME/toolwire/oauth or ~/.config/toolwire/oauth)
  TOOLWIRE_NO_BROWSER                   print MCP login URLs, never open a browser
  NO_COLOR, FORCE_COLOR                 colour off, or on even when piped`,
    )
    // One line and a hint, not the whole help: the error stays on the screen. Commander suggests a close command.
    .showHelpAfterError("(toolwire --help lists the commands; toolwire <command> --help, its options)")
    .showSuggestionAfterError(true)
    .exitOverride();
  const cli = createCliContext(program, output, setExit, outputClosed.signal);
  for (const register of COMMANDS) register(program, cli);
  return program;
}

/** Parses argv, runs the command, and returns the exit code. Never throws. */
async function run(argv: readonly string[]): Promise<number> {
  let exitCode = EXIT_OK;
  let output: Output | undefined;
  const program = buildProgram(
    () => {
      output ??= createOutput({ color: program.opts<GlobalOptions>().color !== false });
      return output;
    },
    (code) => {
      exitCode = code;
    },
  );
  const out = () => output ?? createOutput({ color: false });
  // With --json a program reads stdout: a failure is a JSON line there too (the message for people stays on stderr).
  const json = () => argv.includes("--json") || program.opts<GlobalOptions>().json === true;
  const fail = (exitCode: number, code: string, message: string): number => {
    out().error(paint(out(), "red", `toolwire: ${message}`));
    if (json()) out().line(jsonError(exitCode, code, message));
    return exitCode;
  };
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0) {
        return EXIT_OK;
      }
      // Commander has printed its message already.
      if (json()) out().line(jsonError(EXIT_USAGE, "usage", error.message.replace(/^error: /, "")));
      return EXIT_USAGE;
    }
    const { ConfigError } = await import("../config/load-config.js");
    const { ModelError } = await import("../providers/errors.js");
    const { CedarPolicyError } = await import("../cedar/cedar-policy-error.js");
    // The message already names the file and every issue (with line and column for bad JSON).
    if (error instanceof ConfigError) return fail(EXIT_CONFIG, error.code, error.message);
    // The config's flow.policy file, with its line and Cedar's words.
    if (error instanceof CedarPolicyError) return fail(EXIT_CONFIG, error.code, error.message);
    if (error instanceof CliError)
      return fail(error.exitCode, error.exitCode === EXIT_USAGE ? "usage" : "cli-error", error.message);
    if (error instanceof ModelError && (error.code === "invalid-model-spec" || error.code === "invalid-model-options"))
      return fail(EXIT_USAGE, error.code, error.message);
    const code = (error as { code?: unknown } | null)?.code;
    return fail(EXIT_FAILED, typeof code === "string" ? code : "failed", describeThrown(error));
  }
}

// `toolwire demo | head` closes the pipe early: no crash on EPIPE with a stack trace, and no exit on the spot either
// (the demo's temporary workspace and a run's tools would be left behind). The work is aborted, later writes go
// nowhere, and the command ends once it has cleaned up, or after 5 s at the latest.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
    if (outputClosed.signal.aborted) return;
    outputClosed.abort(new Error("the output pipe closed"));
    setTimeout(() => process.exit(process.exitCode ?? EXIT_OK), 5_000).unref();
  });
}

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // A tool that ignored its abort signal must not keep the command alive once its result is out.
  setTimeout(() => process.exit(code), 200).unref();
});
