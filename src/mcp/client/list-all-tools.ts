// A server's whole tools/list: every page, one request each, bounded against a cursor that never ends.
import { isTimeout, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { TOOL_LIST_PAGE } from "./lenient-results.js";
import type { OpenMcpClient } from "./open-mcp-client.js";

const MAX_LIST_PAGES = 1000;

/** A server's whole tool listing, and until when it is fresh. */
export interface ToolListing {
  /** The entries of every page, in order, unchecked. */
  readonly entries: unknown[];
  /**
   * `performance.now()` until which every page is fresh: the earliest of each page's arrival plus its `ttlMs`. A
   * page without a valid `ttlMs` (a 2025-era server, or a missing or negative one) is stale at once.
   */
  readonly freshUntil: number;
}

/**
 * The entries of all of the server's `tools/list` pages, in order, unchecked (see `readToolListing`), and how long
 * they stay fresh. Each page has `timeoutMs`, reset by progress. Rejects with `McpConnectionError`: the connection's
 * loss when it was lost, `mcp-timeout`, or `mcp-protocol-error` (an error reply, a malformed page, a
 * repeated cursor, more than 1000 pages).
 */
export async function listAllTools(serverId: string, live: OpenMcpClient, timeoutMs: number): Promise<ToolListing> {
  const entries: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let freshUntil = Number.POSITIVE_INFINITY;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    let result: Awaited<ReturnType<typeof requestPage>>;
    try {
      result = await requestPage(live, cursor, timeoutMs);
    } catch (error) {
      throw listError(serverId, live, timeoutMs, error);
    }
    const ttlMs = Number.isSafeInteger(result.ttlMs) && (result.ttlMs as number) > 0 ? (result.ttlMs as number) : 0;
    freshUntil = Math.min(freshUntil, performance.now() + ttlMs);
    entries.push(...(result.tools ?? []));
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (cursor === undefined) return { entries, freshUntil };
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
