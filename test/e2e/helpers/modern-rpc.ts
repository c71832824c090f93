// One raw MCP 2026-07-28 request over HTTP, as a client without an SDK sends it: the era's headers, and the
// protocol's fields in `_meta`.
import { modernMeta } from "./modern-meta.js";

/** The HTTP status and the JSON-RPC answer. */
export interface ModernAnswer {
  readonly status: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}

let ids = 0;

/**
 * Posts `method` with `params` to `url`: `Mcp-Method`, and `Mcp-Name` (the tool's name, or the task's id), with the
 * client's `capabilities` in `_meta` and a bearer `token` when given.
 */
export async function modernRpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { readonly token?: string; readonly capabilities?: Record<string, unknown> } = {},
): Promise<ModernAnswer> {
  const name = method === "tools/call" ? params.name : params.taskId;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" ? { "mcp-name": name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++ids,
      method,
      params: { ...params, _meta: modernMeta(options.capabilities) },
    }),
  });
  const body = (await response.json()) as Omit<ModernAnswer, "status">;
  return { status: response.status, ...body };
}
