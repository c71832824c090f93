// checkParamHeaders: a 2026-07-28 tools/call's Mcp-Param-* headers against its body, as the served tool declares them.
import type { IncomingHttpHeaders } from "node:http";
import {
  decodeMcpHeaderValue,
  MCP_PARAM_HEADER_PREFIX,
  paramValueText,
  scanMcpParamHeaders,
  valueAtPath,
} from "../../client/mcp-param-headers.js";

/** The JSON-RPC error code of a header that disagrees with the body (`HeaderMismatch`), sent with HTTP 400. */
export const HEADER_MISMATCH = -32020;

/**
 * Why the request's headers do not match the call's `args` for a tool with this `inputSchema`, or `undefined` when
 * they match. For each parameter the tool declares with `x-mcp-header` that has a value in `args`, the
 * `Mcp-Param-<name>` header must be there and decode to the same value (integers compared as numbers); a parameter
 * without a value needs no header. A tool whose declarations are invalid has no headers to check.
 */
export function checkParamHeaders(
  inputSchema: unknown,
  args: unknown,
  requestHeaders: IncomingHttpHeaders,
): string | undefined {
  const scan = scanMcpParamHeaders(inputSchema);
  if (scan.kind === "invalid") return undefined;
  for (const declared of scan.headers) {
    const expected = paramValueText(valueAtPath(args, declared.path), declared.type);
    if (expected === undefined) continue;
    const header = `${MCP_PARAM_HEADER_PREFIX}${declared.name}`;
    const sent = requestHeaders[header.toLowerCase()];
    if (sent === undefined) return `the body has ${declared.path.join(".")} but the ${header} header is missing`;
    if (Array.isArray(sent)) return `the ${header} header is sent more than once`;
    const decoded = decodeMcpHeaderValue(sent);
    if (decoded === undefined) return `the ${header} header holds malformed Base64`;
    const same =
      declared.type === "integer"
        ? /^-?\d+(?:\.0+)?$/.test(decoded) && Number(decoded) === Number(expected)
        : decoded === expected;
    if (!same) return `the ${header} header does not match ${declared.path.join(".")} in the body`;
  }
  return undefined;
}
