// `toolwire explain <tool>`: registers the command; the work is in ./run-explain.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";

/** Adds `toolwire explain <tool>`. */
export function registerExplain(program: Command, cli: CliContext): void {
  program
    .command("explain")
    .description("why a tool is available or not (exit 1 when it is not)")
    .argument("<tool>", "tool name")
    .action(async (tool: string) => {
      const { runExplain } = await import("./run-explain.js");
      const runtime = await cli.open();
      try {
        cli.setExit(runExplain(runtime, cli.output(), { tool, json: cli.globals().json === true }));
      } finally {
        await runtime.close();
      }
    });
}
