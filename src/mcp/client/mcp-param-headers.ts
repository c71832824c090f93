// Parameter headers (MCP 2026-07-28 Streamable HTTP, SEP-2243): a tool's `x-mcp-header` declarations, the
// `Mcp-Param-*` headers of a call, and their value encoding.
import { isRecord } from "../../core/json.js";

/** One declared parameter: where it sits in the arguments, the header's name part, its JSON Schema type. */
export interface McpParamHeader {
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  /** The `x-mcp-header` value: the header is `Mcp-Param-<name>`. */
  readonly name: string;
  readonly type: "string" | "integer" | "boolean";
}

/** A tool's declarations, or why they are invalid (the tool must then be left out over HTTP). */
export type McpParamHeaderScan =
  | { readonly kind: "valid"; readonly headers: readonly McpParamHeader[] }
  | { readonly kind: "invalid"; readonly reason: string };

/** The header name prefix of a mirrored parameter. */
export const MCP_PARAM_HEADER_PREFIX = "Mcp-Param-";

const DECLARATION = "x-mcp-header";
/** RFC 9110 `token`: what a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(["string", "integer", "boolean"]);
/** Keywords whose subschemas are not reached by `properties` alone: a declaration under them is invalid. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
];
/** Keywords holding a map of name to subschema. */
const UNREACHABLE_MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"];
const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/**
 * The `x-mcp-header` declarations of `inputSchema`, checked as the 2026-07-28 spec requires: a non-empty RFC 9110
 * token, unique ignoring case, on a `string`, `integer` or `boolean` property reached from the root through
 * `properties` keys only. The first violation makes the whole tool invalid, with a reason naming the property.
 */
export function scanMcpParamHeaders(inputSchema: unknown): McpParamHeaderScan {
  const headers: McpParamHeader[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (!isRecord(node)) return undefined;
    if (DECLARATION in node) {
      const where = path.length === 0 ? "the schema root" : `property ${path.join(".")}`;
      const name = node[DECLARATION];
      if (!reachable || path.length === 0) {
        return `${where}: x-mcp-header is allowed only on properties reached through "properties" keys alone`;
      }
      if (typeof name !== "string" || !TOKEN.test(name)) {
        return `${where}: x-mcp-header ${JSON.stringify(name)} is not a valid header name (a non-empty RFC 9110 token)`;
      }
      const type = node.type;
      if (typeof type !== "string" || !TYPES.has(type)) {
        return `${where}: x-mcp-header is allowed only on string, integer or boolean properties, not ${JSON.stringify(type ?? null)}`;
      }
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined) return `${where}: x-mcp-header "${name}" repeats "${earlier}" (case is ignored)`;
      seen.set(name.toLowerCase(), name);
      headers.push({ path, name, type: type as McpParamHeader["type"] });
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of [...UNREACHABLE, ...UNREACHABLE_MAPS]) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : UNREACHABLE_MAPS.includes(keyword) && isRecord(sub)
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, keyword], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { kind: "valid", headers } : { kind: "invalid", reason: fault };
}

/** The value at `path` of `args`, or `undefined`. */
export function valueAtPath(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * A parameter value as header text: strings as they are, integers in decimal, booleans `true` / `false`;
 * `undefined` for anything else (null, absent, objects, numbers that are not safe integers), whose header is left out.
 */
export function paramValueText(value: unknown, type: McpParamHeader["type"]): string | undefined {
  if (type === "string" && typeof value === "string") return value;
  if (type === "boolean" && typeof value === "boolean") return String(value);
  if (type === "integer" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * The `Mcp-Param-*` headers of one call: one per declared parameter that has a value in `args`, encoded with
 * `encodeMcpHeaderValue`.
 */
export function buildMcpParamHeaders(headers: readonly McpParamHeader[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of headers) {
    const text = paramValueText(valueAtPath(args, header.path), header.type);
    if (text !== undefined) out[`${MCP_PARAM_HEADER_PREFIX}${header.name}`] = encodeMcpHeaderValue(text);
  }
  return out;
}

/**
 * A header value as sent: plain when it is printable ASCII without leading or trailing whitespace, else (or when it
 * looks like the sentinel itself) `=?base64?<UTF-8 as Base64>?=`.
 */
export function encodeMcpHeaderValue(text: string): string {
  const plain =
    text.length > 0 &&
    text === text.trim() &&
    /^[\x20-\x7e\t]*$/.test(text) &&
    !(text.startsWith(SENTINEL_START) && text.endsWith(SENTINEL_END));
  return plain ? text : `${SENTINEL_START}${Buffer.from(text, "utf8").toString("base64")}${SENTINEL_END}`;
}

/**
 * A received header value decoded: the sentinel's Base64 as UTF-8, a plain value as it is; `undefined` when the
 * sentinel holds something that is not canonical Base64 of UTF-8 text.
 */
export function decodeMcpHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END) && value.length >= 11)) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.toString("base64") !== encoded) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
