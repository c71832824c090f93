// `toolwire auth <server-id>`: registers the command; the work is in ./run-auth.ts, loaded when it runs.
import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";

/** Adds `toolwire auth <server-id> [--logout]`. */
export function registerAuth(program: Command, cli: CliContext): void {
  program
    .command("auth")
    .description("log in to an MCP server of the config ahead of time (its auth), or forget its tokens")
    .argument("<server-id>", "the id of an HTTP server in mcpServers with an auth")
    .option("--logout", "delete the stored tokens and registration of the server")
    .action(async (serverId: string, options: { logout?: boolean }) => {
      const { runAuth } = await import("./run-auth.js");
      const { createAuthorizationUrlShower } = await import("../show-authorization-url.js");
      const shower = createAuthorizationUrlShower({
        write: (text) => process.stderr.write(text),
        interactive: process.stderr.isTTY === true,
      });
      const runtime = await cli.open({ connectMcp: false });
      try {
        cli.setExit(
          await runAuth(runtime, cli.output(), { serverId, logout: options.logout === true, show: shower.show }),
        );
      } finally {
        shower.release();
        await runtime.close();
      }
    });
}
