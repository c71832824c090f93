// A server's whole tools/list: every page, one request each, bounded against a cursor that never ends.
import { isTimeout, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { TOOL_LIST_PAGE } from "./lenient-results.js";
import type { OpenMcpClient } from "./open-mcp-client.js";

const MAX_LIST_PAGES = 1000;

/**
 * The entries of all of the server's `tools/list` pages, in order, unchecked (see `readToolListing`).
 * Each page has `timeoutMs`, reset by progress. Rejects with `McpConnectionError`: the connection's
 * loss when it was lost, `mcp-timeout`, or `mcp-protocol-error` (an error reply, a malformed page, a
 * repeated cursor, more than 1000 pages).
 */
export async function listAllTools(serverId: string, live: OpenMcpClient, timeoutMs: number): Promise<unknown[]> {
  const listed: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    let result: Awaited<ReturnType<typeof requestPage>>;
    try {
      result = await requestPage(live, cursor, timeoutMs);
    } catch (error) {
      throw listError(serverId, live, timeoutMs, error);
    }
    listed.push(...(result.tools ?? []));
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (cursor === undefined) return listed;
    if (cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  throw new McpConnectionError(
    "mcp-protocol-error",
    serverId,
    `MCP server ${serverId} kept paging tools/list (a repeated cursor or more than ${MAX_LIST_PAGES} pages)`,
  );
}

function requestPage(live: OpenMcpClient, cursor: string | undefined, timeoutMs: number) {
  // One page per request: the SDK's own aggregation would hide a cursor that never ends.
  return live.client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, TOOL_LIST_PAGE, {
    timeout: timeoutMs,
    resetTimeoutOnProgress: true,
  });
}

function listError(serverId: string, live: OpenMcpClient, timeoutMs: number, error: unknown): McpConnectionError {
  if (live.lost !== undefined) return live.lost;
  if (isTimeout(error)) {
    return new McpConnectionError(
      "mcp-timeout",
      serverId,
      `MCP server ${serverId} did not list its tools within ${timeoutMs} ms`,
      { cause: error },
    );
  }
  return new McpConnectionError(
    "mcp-protocol-error",
    serverId,
    `MCP server ${serverId} could not list its tools: ${messageOf(error)}`,
    { cause: error },
  );
}
