// sendJsonRpcError: the gateway's refusals, as a JSON-RPC error object with no id and an HTTP status.
import type { ServerResponse } from "node:http";

/** Answers `status` with `{ jsonrpc: "2.0", error: { code, message }, id }` (`id` null unless given) and the extra `headers`. */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  id: string | number | null = null,
): void {
  response.writeHead(status, { ...headers, "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}
