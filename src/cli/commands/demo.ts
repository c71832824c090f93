// `toolwire demo`: registers the command; the work is in ./run-demo.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";

/** Adds `toolwire demo [--keep]`. */
export function registerDemo(program: Command, cli: CliContext): void {
  program
    .command("demo")
    .description("a scripted agent fixes a bug in a copy of a sample workspace with the built-in tools (npm start)")
    .option("--keep", "keep the temporary workspace")
    .action(async (options: { keep?: boolean }) => {
      const { runDemo } = await import("./run-demo.js");
      cli.setExit(
        await runDemo(cli.output(), {
          json: cli.globals().json === true,
          keep: options.keep === true,
          signal: cli.interruptSignal(),
        }),
      );
    });
}
