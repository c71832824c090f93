// `toolwire serve`: registers the command; the work is in ./run-serve.ts, loaded when it runs.
import type { Command } from "commander";
import type { Inspector } from "../../inspector/create-inspector.js";
import type { McpConnection } from "../../mcp/client/mcp-connection.js";
import { type CliContext, portOption } from "../cli-context.js";
import { CliError, EXIT_USAGE } from "../exit-codes.js";

/** Adds `toolwire serve [--stdio | --http <port>] [--host <host>] [--no-auth] [--inspect]`. */
export function registerServe(program: Command, cli: CliContext): void {
  program
    .command("serve")
    .description("serve the active tools as an MCP server (stdio by default; loopback HTTP with --http)")
    .option("--stdio", "serve over stdin/stdout (the default)")
    .option("--http <port>", "serve Streamable HTTP on this port (0: any free port)", portOption("--http"))
    .option("--host <host>", "host to bind for --http", "127.0.0.1")
    .option("--no-auth", "with --http on a loopback host: ask clients for no credential")
    .option(
      "--inspect",
      "serve a local web page of the sessions' plans and calls (the URL goes to stderr); it answers approvals the MCP client cannot",
    )
    .option(
      "--inspect-port <port>",
      "the inspector's loopback port (default: any free port)",
      portOption("--inspect-port"),
    )
    .action(
      async (options: {
        stdio?: boolean;
        http?: number;
        host: string;
        auth: boolean;
        inspect?: boolean;
        inspectPort?: number;
      }) => {
        if (options.stdio === true && options.http !== undefined)
          throw new CliError(EXIT_USAGE, "choose --stdio or --http, not both");
        const { runServe, checkServeAuthFlag } = await import("./run-serve.js");
        // Refused before the config loads and any MCP server starts.
        checkServeAuthFlag({ host: options.host, auth: options.auth });
        let inspector: Inspector | undefined;
        let connections: readonly McpConnection[] = [];
        if (options.inspect === true || options.inspectPort !== undefined) {
          const { startInspector } = await import("../start-inspector.js");
          inspector = await startInspector(cli.output(), {
            title: "toolwire serve",
            connections: () => connections,
            ...(options.inspectPort === undefined ? {} : { port: options.inspectPort }),
          });
        }
        try {
          const runtime = await cli.open({ approver: inspector?.approver });
          connections = runtime.connections;
          try {
            cli.setExit(
              await runServe(runtime, cli.output(), {
                ...(options.http === undefined ? {} : { http: options.http }),
                host: options.host,
                auth: options.auth,
                ...(inspector === undefined ? {} : { inspector }),
              }),
            );
          } finally {
            await runtime.close();
          }
        } finally {
          await inspector?.close();
        }
      },
    );
}
