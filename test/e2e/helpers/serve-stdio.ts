// How an MCP client spawns `toolwire serve --stdio` in a project folder, as a desktop host does.
import { CLI, cliEnv } from "./cli.js";

/** The stdio server parameters (for either SDK's stdio transport) that start `toolwire serve --stdio` in `cwd`. */
export function serveStdio(cwd: string, stderr: "ignore" | "pipe" = "ignore") {
  return { command: process.execPath, args: [CLI, "serve", "--stdio"], cwd, env: cliEnv(), stderr };
}
