// `toolwire inspect`: a local web page of the config's plan, kept live, where tools can be called by hand.
import type { Command } from "commander";
import { type CliContext, portOption } from "../cli-context.js";

/** Adds `toolwire inspect [--port <port>]`. */
export function registerInspect(program: Command, cli: CliContext): void {
  program
    .command("inspect")
    .description(
      "serve a local web page of the config's plan, kept live, where you can call tools by hand (until Ctrl-C)",
    )
    .option("--port <port>", "the loopback port (default: any free port)", portOption("--port"))
    .action(async (options: { port?: number }) => {
      const { startInspector, waitForStopSignal } = await import("../start-inspector.js");
      const inspector = await startInspector(cli.output(), {
        title: "toolwire inspect",
        allowToolCalls: true,
        ...(options.port === undefined ? {} : { port: options.port }),
      });
      try {
        const runtime = await cli.open({ approver: inspector.approver });
        try {
          inspector.watch(runtime.session, { label: runtime.fromFile ? runtime.loaded.file : "defaults" });
          cli.output().error("inspector: the page follows the config's session; Ctrl-C ends it");
          await waitForStopSignal();
        } finally {
          await runtime.close();
        }
      } finally {
        await inspector.close();
      }
    });
}
