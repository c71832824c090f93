// The naming rule of bridged tools (docs/mcp.md): `<server>__<tool>`, sanitized, at most 64 characters, `-2` suffixes
// on collisions.
import { createHash } from "node:crypto";

/** The longest name a model provider accepts. */
const MAX_TOOL_NAME_LENGTH = 64;
const SEPARATOR = "__";

/** Replaces every character outside `[A-Za-z0-9_-]` with `-` (per UTF-16 code point). */
export function sanitizeToolNamePart(part: string): string {
  return Array.from(part, (char) => (/^[A-Za-z0-9_-]$/.test(char) ? char : "-")).join("");
}

/** The fewest characters of the server id a cut name keeps, so that it still says where it comes from. */
const MIN_SERVER_CHARS = 12;

/**
 * `<server>__<tool>` plus `suffix`, at most 64 characters in all. When too long, the server part is cut
 * at its end first (keeping at least its first 12 characters), then the tool part, and the name ends
 * with `-` and 6 hex characters of a hash of the whole server id and tool name: two servers' long
 * names that cut to the same text still differ. Both parts must already be sanitized.
 */
function fitName(serverId: string, toolName: string, server: string, tool: string, suffix: string): string {
  if (server.length + SEPARATOR.length + tool.length + suffix.length <= MAX_TOOL_NAME_LENGTH) {
    return `${server}${SEPARATOR}${tool}${suffix}`;
  }
  const trace = `-${createHash("sha256").update(`${serverId}\u0000${toolName}`).digest("hex").slice(0, 6)}`;
  const budget = MAX_TOOL_NAME_LENGTH - SEPARATOR.length - trace.length - suffix.length;
  const serverPart = server.slice(0, Math.max(Math.min(server.length, MIN_SERVER_CHARS), budget - tool.length));
  const toolPart = tool.slice(0, budget - serverPart.length);
  return `${serverPart}${SEPARATOR}${toolPart}${trace}${suffix}`;
}

/**
 * The names a connection gives its tools, in the server's listing order. A name that collides,
 * ignoring case, with one given to an earlier tool gets the first free `-2`, `-3`, ... Every name
 * matches /^[A-Za-z0-9_-]{1,64}$/, and the result is the same for the same input.
 */
export function assignMcpToolNames(serverId: string, toolNames: readonly string[]): string[] {
  const server = sanitizeToolNamePart(serverId);
  const taken = new Set<string>();
  return toolNames.map((toolName) => {
    const tool = sanitizeToolNamePart(toolName);
    let name = fitName(serverId, toolName, server, tool, "");
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = fitName(serverId, toolName, server, tool, `-${n}`);
    taken.add(name.toLowerCase());
    return name;
  });
}
