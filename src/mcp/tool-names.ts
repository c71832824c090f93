// The naming rule of SPEC section 9: `<server>__<tool>`, sanitized, at most 64 characters, `-2` suffixes on collisions.

/** The longest name a model provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;
const SEPARATOR = "__";

/** Replaces every character outside `[A-Za-z0-9_-]` with `-` (per UTF-16 code point). */
export function sanitizeToolNamePart(part: string): string {
  return Array.from(part, (char) => (/^[A-Za-z0-9_-]$/.test(char) ? char : "-")).join("");
}

/**
 * `<server>__<tool>` plus `suffix`, at most 64 characters in all: when too long, the server part is
 * cut at its end first, then the tool part. Both parts must already be sanitized.
 */
function fitName(server: string, tool: string, suffix: string): string {
  const budget = MAX_TOOL_NAME_LENGTH - suffix.length - SEPARATOR.length;
  let serverPart = server;
  let toolPart = tool;
  if (serverPart.length + toolPart.length > budget) {
    serverPart = serverPart.slice(0, Math.max(0, budget - toolPart.length));
    toolPart = toolPart.slice(0, budget - serverPart.length);
  }
  return `${serverPart}${SEPARATOR}${toolPart}${suffix}`;
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
    let name = fitName(server, tool, "");
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = fitName(server, tool, `-${n}`);
    taken.add(name.toLowerCase());
    return name;
  });
}
