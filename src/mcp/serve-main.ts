#!/usr/bin/env node
// A runnable MCP gateway: bridges the MCP servers of a JSON config into one session and serves it over stdio or HTTP.
//   node dist/mcp/serve-main.js <config.json> [--http <port>] [--host <host>]
// The config: { "servers": [{ "id", "command", "args"?, "env"?, "cwd"?, "include"?, "exclude"?, "timeoutMs"? }
//                          | { "id", "url", "headers"?, ... }] }
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createToolRegistry } from "../core/register/registry.js";
import { createAgentSession } from "../create-agent-session.js";
import { connectMcpServer, type McpConnection } from "./connect-mcp-server.js";
import { McpConnectionError } from "./errors.js";
import type { McpServerConfig } from "./mcp-config.js";
import { serveMcp } from "./serve-mcp.js";

/** One server of a gateway config: a server config plus its connect options. */
export type GatewayServerConfig = McpServerConfig & {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly timeoutMs?: number;
};

/** Reads the config, connects every server, serves the session; resolves when serving stopped. */
export async function runMcpGateway(argv: readonly string[]): Promise<void> {
  const [configPath, ...flags] = argv;
  if (configPath === undefined) throw new Error("usage: serve-main <config.json> [--http <port>] [--host <host>]");
  const config = JSON.parse(await readFile(configPath, "utf8")) as { servers?: GatewayServerConfig[] };
  const log = (text: string) => process.stderr.write(`toolwire gateway: ${text}\n`);
  const connections: McpConnection[] = [];
  try {
    for (const server of config.servers ?? []) {
      const { include, exclude, timeoutMs, ...serverConfig } = server;
      connections.push(
        await connectMcpServer(serverConfig as McpServerConfig, {
          include,
          exclude,
          timeoutMs,
          onError: (error) => log(error.message),
        }),
      );
    }
  } catch (error) {
    await Promise.all(connections.map((connection) => connection.close()));
    throw error;
  }
  const registry = createToolRegistry({ extensions: connections });
  const session = createAgentSession({ registry });
  const httpAt = flags.indexOf("--http");
  const hostAt = flags.indexOf("--host");
  const handle =
    httpAt === -1
      ? await serveMcp(session, { transport: "stdio" })
      : await serveMcp(session, {
          transport: "http",
          port: Number(flags[httpAt + 1] ?? 0),
          host: hostAt === -1 ? undefined : flags[hostAt + 1],
        });
  if (handle.url !== undefined) log(`serving ${registry.tools.size} tools at ${handle.url}`);
  const stop = () => void handle.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await handle.closed;
  session.close();
  registry.close();
  await Promise.all(connections.map((connection) => connection.close()));
}

const invokedDirectly =
  process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) {
  runMcpGateway(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      const message = error instanceof McpConnectionError || error instanceof Error ? error.message : String(error);
      process.stderr.write(`toolwire gateway: ${message}\n`);
      process.exit(1);
    },
  );
}
