// Allow/deny policy layers: each layer narrows what the one before left; deny wins within a layer.
import { ownValue } from "../json.js";
import type { PolicyLayer, PolicyRemoval, PolicyResult, ToolDescriptor } from "../types.js";

/** Tool names behind `group:fs` and `group:runtime`. */
export const POLICY_GROUPS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "group:fs": Object.freeze(["read", "write", "edit", "ls", "grep", "find"]),
  "group:runtime": Object.freeze(["bash"]),
});

type Matcher = (descriptor: ToolDescriptor, lowerName: string) => boolean;

interface CompiledPattern {
  readonly written: string;
  readonly matches: Matcher;
}

const NOTHING: Matcher = () => false;

/** Turns one pattern (case and surrounding blanks ignored) into a matcher. */
export function compilePolicyPattern(pattern: string): Matcher {
  const normalized = pattern.trim().toLowerCase();
  if (normalized === "") return NOTHING;
  if (normalized === "*") return () => true;
  // An own key only: `constructor` and `__proto__` are tool names, not groups.
  const group = ownValue(POLICY_GROUPS, normalized) as readonly string[] | undefined;
  if (group !== undefined) return (_, name) => group.includes(name);
  if (normalized === "group:mcp") return (descriptor) => descriptor.owner.kind === "mcp";
  if (normalized === "group:plugins") return (descriptor) => pluginIdOf(descriptor) !== undefined;
  if (normalized.startsWith("group:")) return NOTHING;
  if (normalized.startsWith("plugin:")) {
    const id = normalized.slice("plugin:".length);
    return (descriptor) => pluginIdOf(descriptor)?.toLowerCase() === id;
  }
  if (normalized.startsWith("mcp:")) {
    const id = normalized.slice("mcp:".length);
    return (descriptor) => descriptor.owner.kind === "mcp" && descriptor.owner.serverId.toLowerCase() === id;
  }
  if (normalized.includes("*")) {
    const source = normalized
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    const regex = new RegExp(`^${source}$`, "s");
    return (_, name) => regex.test(name);
  }
  return (_, name) => name === normalized;
}

function pluginIdOf(descriptor: ToolDescriptor): string | undefined {
  const owner = descriptor.owner;
  return owner.kind === "plugin" || owner.kind === "channel" ? owner.pluginId : undefined;
}

function compileAll(patterns: readonly string[] | undefined): CompiledPattern[] {
  return (patterns ?? []).map((written) => ({ written, matches: compilePolicyPattern(written) }));
}

/**
 * Applies policy layers in order. A tool leaves at the first layer that denies it (the matching
 * deny pattern) or whose non-empty allow list misses it (pattern `null`). Patterns that match no
 * tool of the input are reported once per layer, as written.
 */
export function applyToolPolicy(tools: readonly ToolDescriptor[], layers: readonly PolicyLayer[]): PolicyResult {
  const lowerNames = tools.map((tool) => tool.name.toLowerCase());
  let kept = tools.map((_, index) => index);
  const removed: PolicyRemoval[] = [];
  const unknownPatterns: { layer: string; pattern: string }[] = [];
  for (const layer of layers) {
    const allow = compileAll(layer.allow);
    const deny = compileAll(layer.deny);
    const reported = new Set<string>();
    for (const pattern of [...allow, ...deny]) {
      const key = pattern.written.trim().toLowerCase();
      if (reported.has(key)) continue;
      if (!tools.some((tool, index) => pattern.matches(tool, lowerNames[index] as string))) {
        reported.add(key);
        unknownPatterns.push({ layer: layer.label, pattern: pattern.written });
      }
    }
    const next: number[] = [];
    for (const index of kept) {
      const tool = tools[index] as ToolDescriptor;
      const name = lowerNames[index] as string;
      const denied = deny.find((pattern) => pattern.matches(tool, name));
      if (denied !== undefined) {
        removed.push({ name: tool.name, layer: layer.label, pattern: denied.written });
      } else if (allow.length > 0 && !allow.some((pattern) => pattern.matches(tool, name))) {
        removed.push({ name: tool.name, layer: layer.label, pattern: null });
      } else {
        next.push(index);
      }
    }
    kept = next;
  }
  return { kept: kept.map((index) => tools[index] as ToolDescriptor), removed, unknownPatterns };
}
