// `--inspect` and `toolwire inspect`: the inspector started for a command, its URL on stderr, and the wait for Ctrl-C.
import type { Inspector } from "../inspector/create-inspector.js";
import type { McpConnection } from "../mcp/client/mcp-connection.js";
import { readAppFromConnections } from "../mcp/server/read-app-from-connections.js";
import type { Output } from "./output.js";

/**
 * Starts the inspector (loaded only now: commands without `--inspect` never load it) and prints its URL on
 * stderr, on a line of its own: `inspector: http://127.0.0.1:PORT/TOKEN/`. The apps of bridged tools are read from
 * `connections()`, the MCP servers of the config once it is open.
 */
export async function startInspector(
  output: Output,
  options: {
    readonly port?: number;
    readonly allowToolCalls?: boolean;
    readonly title: string;
    readonly connections?: () => readonly McpConnection[];
  },
): Promise<Inspector> {
  const { createInspector } = await import("../inspector/create-inspector.js");
  const inspector = await createInspector({
    title: options.title,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.allowToolCalls === true ? { allowToolCalls: true } : {}),
    readAppResource: (tool, uri) => readAppFromConnections(options.connections?.() ?? [])(tool, uri),
  });
  output.error(`inspector: ${inspector.url}`);
  return inspector;
}

/** Resolves on the first SIGINT (Ctrl-C) or SIGTERM, with its name; the listeners are removed then. */
export function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/**
 * The page's approver, saying on stderr what waits there: with no terminal to ask, a run that stops for an approval
 * would otherwise sit silent. `inspector: edit waits for your approval on the page (approval <id>)`.
 */
export function announcedOnStderr(output: Output, inspector: Inspector): Inspector["approver"] {
  return (request, context) => {
    output.error(`inspector: ${request.toolName} waits for your approval on the page (${request.approvalId})`);
    return inspector.approver(request, context);
  };
}
