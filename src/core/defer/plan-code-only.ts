// Which of the registry's tools are reachable only through code (code mode's programs): matched by a codeOnly pattern.
import { compilePolicyPattern } from "../filter/policy.js";
import type { AgentTool, ToolCodeOnly } from "../types.js";

/** The name of code mode's tool (`toolwire/code-mode`), which no codeOnly pattern hides. */
export const CODE_MODE_TOOL_NAME = "run_code";

/** What `planCodeOnly` decides. */
interface CodeOnlyPlan {
  /** The code-only tools by name, in the tools' order, each with the first pattern that matched it. */
  readonly codeOnly: ReadonlyMap<string, ToolCodeOnly>;
  /** Patterns that matched none of the tools, as written. */
  readonly unknownPatterns: readonly string[];
}

/** Matches `patterns` (policy-pattern syntax) against the tools a registry holds, in their order. Pure. */
export function planCodeOnly(tools: Iterable<AgentTool>, patterns: readonly string[]): CodeOnlyPlan {
  const codeOnly = new Map<string, ToolCodeOnly>();
  if (patterns.length === 0) return { codeOnly, unknownPatterns: [] };
  const compiled = patterns.map((written) => ({ written, matches: compilePolicyPattern(written) }));
  const matched = new Set<string>();
  for (const { descriptor } of tools) {
    // Code mode's own tool is how the model reaches the others: it is always sent, whatever the patterns say.
    if (descriptor.name === CODE_MODE_TOOL_NAME) continue;
    const lower = descriptor.name.toLowerCase();
    for (const candidate of compiled) {
      if (!candidate.matches(descriptor, lower)) continue;
      matched.add(candidate.written);
      if (!codeOnly.has(descriptor.name)) codeOnly.set(descriptor.name, { pattern: candidate.written });
    }
  }
  const unknownPatterns = [...new Set(patterns.filter((pattern) => !matched.has(pattern)))];
  return { codeOnly, unknownPatterns };
}
