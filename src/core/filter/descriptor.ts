// Descriptor helpers: the name rule, executor refs in words, and the protocol view a model sees.
import { isRecord } from "../json.js";
import type { ToolDescriptor, ToolExecutorRef, ToolPlanEntry, ToolProtocolDescriptor } from "../types.js";

/** What every model provider accepts as a tool name. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `core:<executorId>`, `plugin:<pluginId>:<toolName>`, `channel:<channelId>:<actionId>`, `mcp:<serverId>:<toolName>`.
 * For diagnostics only.
 */
export function formatToolExecutorRef(ref: ToolExecutorRef): string {
  switch (ref.kind) {
    case "core":
      return `core:${ref.executorId}`;
    case "plugin":
      return `plugin:${ref.pluginId}:${ref.toolName}`;
    case "channel":
      return `channel:${ref.channelId}:${ref.actionId}`;
    case "mcp":
      return `mcp:${ref.serverId}:${ref.toolName}`;
  }
}

/** Maps visible plan entries to exactly `{ name, description, inputSchema }`, nothing else. */
export function toToolProtocolDescriptors(entries: readonly ToolPlanEntry[]): ToolProtocolDescriptor[] {
  return entries.map(({ descriptor }) => ({
    name: descriptor.name,
    description: descriptor.description,
    inputSchema: descriptor.inputSchema,
  }));
}

/** What is wrong with a descriptor, or `undefined` when nothing is. */
export function describeDescriptorProblem(descriptor: ToolDescriptor): string | undefined {
  if (!isRecord(descriptor)) return "Tool descriptor is not an object";
  const { name, inputSchema } = descriptor;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    return `Invalid tool name ${JSON.stringify(name) ?? String(name)}: a name must match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", 1 to 64 characters)`;
  }
  if (typeof descriptor.description !== "string") return `Tool ${name} has no description string`;
  if (!isRecord(inputSchema)) return `Tool ${name} has an inputSchema that is not an object`;
  if (inputSchema.type !== "object") {
    return `Tool ${name} has an inputSchema whose type is ${JSON.stringify(inputSchema.type) ?? "missing"}, expected "object"`;
  }
  if (!isRecord(descriptor.owner)) return `Tool ${name} has no owner`;
  const { trust, effects } = descriptor;
  if (trust !== undefined && trust !== "trusted" && trust !== "untrusted") {
    return `Tool ${name} has trust ${JSON.stringify(trust) ?? String(trust)}, expected "trusted" or "untrusted"`;
  }
  if (effects !== undefined && effects !== "none" && effects !== "local" && effects !== "external") {
    return `Tool ${name} has effects ${JSON.stringify(effects) ?? String(effects)}, expected "none", "local" or "external"`;
  }
  return undefined;
}
