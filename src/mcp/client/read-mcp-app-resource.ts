// readMcpAppResource: the HTML of an MCP App (a `ui://` resource a tool names in `_meta.ui`) read from its server.
import { ProtocolError } from "@modelcontextprotocol/client";
import { isRecord } from "../../core/json.js";
import type { JsonObject } from "../../core/types.js";
import { isTimeout, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { MCP_APP_MIME_TYPE, type McpAppResource } from "./mcp-app.js";
import type { OpenMcpClient } from "./open-mcp-client.js";

/** Refuses a URI that is not a `ui://` one with `mcp-app-invalid-uri`, before anything is sent. */
export function checkAppUri(serverId: string, uri: unknown): string {
  if (typeof uri === "string" && uri.startsWith("ui://")) return uri;
  throw new McpConnectionError(
    "mcp-app-invalid-uri",
    serverId,
    `MCP server ${serverId}: an app is a ui:// resource, got ${JSON.stringify(uri) ?? String(uri)}`,
  );
}

/**
 * Reads `uri` with `resources/read` on `live` (within `timeoutMs`). Rejects with `McpConnectionError`:
 * `mcp-app-not-found` (the server has no such resource, or answered no content for it), `mcp-app-not-html` (its
 * content is not `text/html`, or not text), `mcp-timeout`, the connection's loss, or `mcp-protocol-error`.
 */
export async function readMcpAppResource(
  serverId: string,
  live: OpenMcpClient,
  uri: string,
  timeoutMs: number,
): Promise<McpAppResource> {
  let result: { contents?: unknown };
  try {
    result = await live.client.readResource({ uri }, { timeout: timeoutMs });
  } catch (error) {
    throw readError(serverId, live, uri, timeoutMs, error);
  }
  const contents = Array.isArray(result.contents) ? result.contents.filter(isRecord) : [];
  const content = contents.find((entry) => entry.uri === uri) ?? contents[0];
  if (content === undefined) {
    throw new McpConnectionError("mcp-app-not-found", serverId, `MCP server ${serverId} sent no content for ${uri}`);
  }
  const mimeType = typeof content.mimeType === "string" ? content.mimeType : "";
  const html =
    typeof content.text === "string"
      ? content.text
      : typeof content.blob === "string"
        ? Buffer.from(content.blob, "base64").toString("utf8")
        : undefined;
  if (!/^text\/html\s*(;|$)/i.test(mimeType) || html === undefined) {
    const what = html === undefined ? "no text" : `mime type ${JSON.stringify(mimeType)}`;
    throw new McpConnectionError(
      "mcp-app-not-html",
      serverId,
      `MCP server ${serverId}: ${uri} is not an app's HTML (${what}; expected ${MCP_APP_MIME_TYPE})`,
    );
  }
  const meta = isRecord(content._meta) ? (JSON.parse(JSON.stringify(content._meta)) as JsonObject) : undefined;
  return { uri, mimeType, html, ...(meta === undefined ? {} : { _meta: meta }) };
}

function readError(
  serverId: string,
  live: OpenMcpClient,
  uri: string,
  timeoutMs: number,
  error: unknown,
): McpConnectionError {
  if (live.lost !== undefined) return live.lost;
  if (isTimeout(error)) {
    return new McpConnectionError(
      "mcp-timeout",
      serverId,
      `MCP server ${serverId} did not send ${uri} within ${timeoutMs} ms`,
      {
        cause: error,
      },
    );
  }
  // Resource not found: -32602 with the URI in its data (2025-11-25 on), -32002 before; -32601: no resources at all.
  if (error instanceof ProtocolError && [-32002, -32602, -32601].includes(error.code)) {
    return new McpConnectionError(
      "mcp-app-not-found",
      serverId,
      `MCP server ${serverId} has no resource ${uri}: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  return new McpConnectionError(
    "mcp-protocol-error",
    serverId,
    `MCP server ${serverId} could not send ${uri}: ${messageOf(error)}`,
    {
      cause: error,
    },
  );
}
