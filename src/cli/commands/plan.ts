// `toolwire plan`: registers the command; the work is in ./print-plan.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { versioned } from "../json-output.js";

/** Adds `toolwire plan`. */
export function registerPlan(program: Command, cli: CliContext): void {
  program
    .command("plan")
    .description("the visible tools, the hidden ones with why, and what policy removed")
    .action(async () => {
      const { planAsJson, printPlan } = await import("./print-plan.js");
      const runtime = await cli.open();
      try {
        if (cli.globals().json === true) cli.output().line(JSON.stringify(versioned(planAsJson(runtime)), null, 2));
        else printPlan(runtime, cli.output());
      } finally {
        await runtime.close();
      }
    });
}
