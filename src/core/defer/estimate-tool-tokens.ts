// How many tokens a tool's definition costs a model, estimated the same way for every provider.
import { canonicalJson } from "../approve/input-digest.js";
import type { AgentTool, ToolProtocolDescriptor } from "../types.js";

/** Characters per estimated token. */
const CHARACTERS_PER_TOKEN = 4;

const estimates = new WeakMap<ToolProtocolDescriptor, number>();

/**
 * A tool definition's estimated tokens: the length, in UTF-16 code units, of the RFC 8785 canonical JSON of
 * `{ name, description, inputSchema }` (what every provider's tool format is made of), divided by 4 and rounded up.
 * The same for every provider, so a budget means the same everywhere; a provider's real count differs by its
 * tokenizer and the few bytes its format wraps around each tool. Takes a tool or a descriptor; remembered per
 * descriptor object.
 */
export function estimateToolTokens(tool: AgentTool | ToolProtocolDescriptor): number {
  const descriptor = "descriptor" in tool ? tool.descriptor : tool;
  let tokens = estimates.get(descriptor);
  if (tokens === undefined) {
    const { name, description, inputSchema } = descriptor;
    tokens = Math.ceil(canonicalJson({ name, description, inputSchema }).length / CHARACTERS_PER_TOKEN);
    estimates.set(descriptor, tokens);
  }
  return tokens;
}
