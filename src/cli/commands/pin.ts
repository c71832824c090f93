// `toolwire pin`: registers the command; the work is in ./run-pin.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";

/** Adds `toolwire pin [--diff <tool> | --accept <tool> | --accept-all]`. */
export function registerPin(program: Command, cli: CliContext): void {
  program
    .command("pin")
    .description('MCP tools\' pinned definitions (with "pins": true): list them, diff a changed one, accept it')
    .option("--diff <tool>", "show what changed in a tool hidden with definition-changed")
    .option("--accept <tool>", "pin the definition listed now and show the tool again")
    .option("--accept-all", "accept every changed definition")
    .action(async (options: { diff?: string; accept?: string; acceptAll?: boolean }) => {
      const { runPin } = await import("./run-pin.js");
      const runtime = await cli.open();
      try {
        cli.setExit(runPin(runtime, cli.output(), { ...options, json: cli.globals().json === true }));
      } finally {
        await runtime.close();
      }
    });
}
