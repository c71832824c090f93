// `toolwire plan [--strict]`: prints the visible tools, the hidden ones with why, and what policy removed; with
// --strict, exits 1 when part of the config failed to load. The work is in ./print-plan.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { EXIT_FAILED } from "../exit-codes.js";
import { versioned } from "../json-output.js";

/** Adds `toolwire plan` and its `--strict` (exit 1 when anything of the config failed to load). */
export function registerPlan(program: Command, cli: CliContext): void {
  program
    .command("plan")
    .description("the visible tools, the hidden ones with why, and what policy removed")
    .option("--strict", "exit 1 when a plugin, skill or MCP server of the config failed to load (for CI)")
    .action(async (options: { strict?: boolean }) => {
      const { planAsJson, printPlan, reportStrictFailures } = await import("./print-plan.js");
      const runtime = await cli.open();
      try {
        if (cli.globals().json === true) cli.output().line(JSON.stringify(versioned(planAsJson(runtime)), null, 2));
        else printPlan(runtime, cli.output());
        if (options.strict === true && reportStrictFailures(runtime, cli.output())) cli.setExit(EXIT_FAILED);
      } finally {
        await runtime.close();
      }
    });
}
