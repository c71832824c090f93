// Pinning at each refresh: the first listing of an MCP tool is pinned, a listing that differs from its pin is held.
import type {
  HiddenToolPlanEntry,
  ToolDefinitionChange,
  ToolDescriptor,
  ToolPinEntry,
  ToolPinStore,
} from "../types.js";
import { describeDefinitionChange } from "./fingerprint-tool-definition.js";
import type { SourcedTool } from "./sources.js";

/** What pinning made of a refresh's descriptors. */
export interface PinCheck {
  /** The descriptors not held, in order: `descriptors` itself when none was held. */
  readonly kept: readonly ToolDescriptor[];
  /** The held tools as hidden entries (reason `definition-changed`), in name order. */
  readonly held: readonly HiddenToolPlanEntry[];
  readonly changes: readonly ToolDefinitionChange[];
}

const NO_CHANGES: PinCheck["changes"] = [];

/**
 * Checks every MCP tool with a listed definition (`listedDefinition`) against `store`: a tool without a pin gets one
 * (its listed definition now), a tool whose fingerprint differs from its pin is held. Other tools pass untouched.
 * Throws what `store.set` throws.
 */
export function checkPins(
  descriptors: readonly ToolDescriptor[],
  winners: ReadonlyMap<string, SourcedTool>,
  store: ToolPinStore,
): PinCheck {
  let changes: ToolDefinitionChange[] | undefined;
  const first: ToolPinEntry[] = [];
  for (const descriptor of descriptors) {
    const { owner } = descriptor;
    if (owner.kind !== "mcp") continue;
    const current = winners.get(descriptor.name)?.tool.listedDefinition;
    if (current === undefined) continue;
    const toolName = current.definition.name;
    const pinned = store.get(owner.serverId, toolName);
    if (pinned === undefined) {
      first.push({ serverId: owner.serverId, toolName, pin: current });
    } else if (pinned.fingerprint !== current.fingerprint) {
      const changed = describeDefinitionChange(pinned.definition, current.definition);
      changes ??= [];
      changes.push({ name: descriptor.name, serverId: owner.serverId, toolName, pinned, current, changed });
    }
  }
  if (first.length > 0) store.set(first);
  if (changes === undefined) return { kept: descriptors, held: [], changes: NO_CHANGES };
  changes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const heldNames = new Set(changes.map((change) => change.name));
  const held = changes.map((change) => ({
    descriptor: (winners.get(change.name) as SourcedTool).tool.descriptor,
    diagnostics: [
      {
        reason: "definition-changed" as const,
        message: `MCP server ${change.serverId} changed the definition of its tool ${change.toolName} since it was pinned (${change.changed.join(", ") || "fingerprint"}); the tool stays hidden until a person reviews and accepts the new definition`,
      },
    ],
  }));
  return { kept: descriptors.filter((descriptor) => !heldNames.has(descriptor.name)), held, changes };
}
