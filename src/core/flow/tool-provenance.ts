// A tool's trust and effects as flow rules read them: what it declares, else the defaults (docs/security.md).
import type { ToolDescriptor, ToolEffects, ToolTrust } from "../types.js";

/** The tool's declared trust; undeclared, MCP tools are `untrusted` and every other tool `trusted`. */
export function toolTrust(descriptor: ToolDescriptor): ToolTrust {
  return descriptor.trust ?? (descriptor.owner.kind === "mcp" ? "untrusted" : "trusted");
}

/**
 * The tool's declared effects; undeclared, `external` (fail closed), except an MCP tool annotated
 * `readOnlyHint: true`, which is `none`.
 */
export function toolEffects(descriptor: ToolDescriptor): ToolEffects {
  if (descriptor.effects !== undefined) return descriptor.effects;
  return descriptor.owner.kind === "mcp" && descriptor.annotations?.readOnlyHint === true ? "none" : "external";
}
