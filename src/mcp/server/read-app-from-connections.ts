// readAppFromConnections: a served tool's MCP App read from the upstream server it was bridged from.
import { McpConnectionError } from "../client/errors.js";
import type { McpConnection } from "../client/mcp-connection.js";
import type { AppResourceReader } from "./serve-app-resources.js";

/**
 * Reads a bridged tool's app from its own connection among `connections` (matched by the tool's executor's
 * `serverId`); a tool that is not bridged from one of them has no app to read (`mcp-app-not-found`).
 */
export function readAppFromConnections(connections: readonly McpConnection[]): AppResourceReader {
  return (tool, uri) => {
    const executor = tool.executor;
    const serverId = executor?.kind === "mcp" ? executor.serverId : undefined;
    const connection = connections.find((candidate) => candidate.serverId === serverId);
    if (connection === undefined) {
      const message = `the tool ${tool.name} is not bridged from an MCP server, so its app ${uri} cannot be read`;
      return Promise.reject(new McpConnectionError("mcp-app-not-found", serverId ?? "", message));
    }
    return connection.readAppResource(uri);
  };
}
