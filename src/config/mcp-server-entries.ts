// mcpServerEntries: the entries of `mcpServers` in either form (a list, or an object keyed by server id), read alike.
import { isRecord } from "../core/json.js";
import type { McpServerConfig } from "../mcp/client/mcp-config-types.js";
import type { ConfigIssue } from "./config-issue.js";
import { joinPath } from "./config-issue.js";

/** How a config wrote `mcpServers`: a list of entries with ids, or an object keyed by server id (Claude Desktop's). */
export type McpServersForm = "list" | "object";

/**
 * One entry of `mcpServers`, where the config wrote it (`mcpServers[0]`, `mcpServers.fs`) and its key in object form.
 */
export interface McpServerEntry {
  readonly path: string;
  readonly key?: string;
  readonly entry: unknown;
}

/** The form of a `mcpServers` value, or `undefined` when it is neither a list nor an object. */
export function mcpServersFormOf(value: unknown): McpServersForm | undefined {
  if (Array.isArray(value)) return "list";
  return isRecord(value) ? "object" : undefined;
}

/** Every entry of a `mcpServers` value of either form; none for a value of neither. */
export function mcpServerEntries(value: unknown): McpServerEntry[] {
  const form = mcpServersFormOf(value);
  if (form === "list") return (value as unknown[]).map((entry, index) => ({ path: `mcpServers[${index}]`, entry }));
  if (form === "object") {
    return Object.entries(value as Record<string, unknown>).map(([key, entry]) => ({
      // Spelled as the schema's issues spell it: a key of digits in brackets.
      path: /^\d+$/.test(key) ? `mcpServers[${key}]` : joinPath("mcpServers", key),
      key,
      entry,
    }));
  }
  return [];
}

/**
 * A valid `mcpServers` value as the list the rest of toolwire reads: in object form each entry gets its key as
 * `id`; in both forms `type` is dropped, since `command` or `url` already says how the server is reached.
 */
export function listMcpServers(value: unknown): McpServerConfig[] {
  return mcpServerEntries(value).map(({ key, entry }) => {
    const { type: _type, ...rest } = entry as Record<string, unknown>;
    return (key === undefined ? rest : { id: key, ...rest }) as unknown as McpServerConfig;
  });
}

/** Keys other MCP clients' configs use that toolwire spells another way or does not have, with what to write. */
const FOREIGN_KEYS: Readonly<Record<string, string>> = {
  disabled: 'toolwire writes "enabled": false',
  serverUrl: 'toolwire names the server\'s Streamable HTTP address "url"',
  httpUrl: 'toolwire names the server\'s Streamable HTTP address "url"',
  envFile: 'toolwire reads no env file: list the variables in "env"',
  autoApprove: 'toolwire runs tools without asking unless the top-level "approvals.require" names them',
  alwaysAllow: 'toolwire runs tools without asking unless the top-level "approvals.require" names them',
};

/**
 * What the schema cannot say about `mcpServers` entries, for a value of any shape: an object-form entry whose `id`
 * differs from its key, a `type` that contradicts `command`/`url` or names the unsupported SSE transport.
 */
export function mcpServerEntryIssues(value: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { path, key, entry } of mcpServerEntries(value)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) continue;
    const { id, type, url } = entry as Record<string, unknown>;
    if (key !== undefined && typeof id === "string" && id !== key) {
      issues.push({
        path: `${path}.id`,
        message: `is "${id}" but the entry's key is "${key}": the key is the server's id; drop "id" or make the two the same`,
      });
    }
    if (type === "sse") {
      issues.push({
        path: `${path}.type`,
        message:
          'is "sse", the HTTP+SSE transport of MCP 2024-11-05, which toolwire does not speak: if the server also serves Streamable HTTP (its URL often ends in /mcp), write "http" with that URL',
      });
    } else if (type === "http" && url === undefined) {
      issues.push({
        path: `${path}.type`,
        message: 'is "http", which needs "url" (an http:// or https:// URL); a server started by "command" is "stdio"',
      });
    } else if (type === "stdio" && url !== undefined) {
      issues.push({
        path: `${path}.type`,
        message: 'is "stdio", which needs "command" and no "url"; a server reached by "url" is "http"',
      });
    }
  }
  return issues;
}

/** `issue` with a plainer message when it is an unknown key another MCP client's config uses in a server entry. */
export function explainForeignKey(issue: ConfigIssue): ConfigIssue {
  const match = /^mcpServers(?:\[\d+\]|\.[A-Za-z_$][A-Za-z0-9_$]*|\["(?:[^"\\]|\\.)*"\])\.([A-Za-z]+)$/.exec(
    issue.path,
  );
  const key = match?.[1];
  if (key === undefined || !Object.hasOwn(FOREIGN_KEYS, key) || !issue.message.startsWith("unknown property")) {
    return issue;
  }
  const hint = FOREIGN_KEYS[key] as string;
  return { path: issue.path, message: `unknown property; ${hint}` };
}
