// `toolwire call <tool> [json]`: registers the command; the work is in ./run-call.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";

/** Adds `toolwire call <tool> [json]`. */
export function registerCall(program: Command, cli: CliContext): void {
  program
    .command("call")
    .description("call one tool as a model would; exit 1 when the result is an error")
    .argument("<tool>", "tool name")
    .argument("[json]", 'input as JSON text, e.g. \'{"path":"README.md"}\' (default {})')
    .action(async (tool: string, input: string | undefined) => {
      const { runCall } = await import("./run-call.js");
      const runtime = await cli.open();
      try {
        cli.setExit(
          await runCall(runtime, cli.output(), {
            tool,
            input,
            json: cli.globals().json === true,
            signal: cli.interruptSignal(),
          }),
        );
      } finally {
        await runtime.close();
      }
    });
}
