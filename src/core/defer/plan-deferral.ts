// Which of the registry's tools are deferred, and why: marked in code, matched a defer pattern, or over the token
// budget.
import { compilePolicyPattern } from "../filter/policy.js";
import type { AgentTool, ToolDeferral, ToolDescriptor } from "../types.js";
import { TOOL_SEARCH_DEFINITION } from "./create-tool-search-tool.js";
import { estimateToolTokens } from "./estimate-tool-tokens.js";

/** What `planDeferral` decides. */
interface DeferralPlan {
  /** The deferred tools by name, in the tools' order. */
  readonly deferred: ReadonlyMap<string, ToolDeferral>;
  /** Defer patterns that matched none of the tools, as written. */
  readonly unknownPatterns: readonly string[];
}

/**
 * Decides deferral over the tools a registry holds, in their order. A tool is deferred when its descriptor says
 * `defer: true` (`marked`), else when a `patterns` entry matches it (policy-pattern syntax; the first that matches
 * is named), else, with a `budgetTokens`, when the budget needs it: while the estimated tokens of the tools still
 * sent (with `tool_search` once any tool is deferred) exceed the budget, MCP and plugin tools are deferred, largest
 * first (ties by name). Core tools are never deferred by the budget. Pure.
 */
export function planDeferral(options: {
  readonly tools: Iterable<AgentTool>;
  readonly patterns?: readonly string[];
  readonly budgetTokens?: number;
}): DeferralPlan {
  const patterns = (options.patterns ?? []).map((written) => ({ written, matches: compilePolicyPattern(written) }));
  const budget = options.budgetTokens;
  const matched = new Set<string>();
  const deferred = new Map<string, ToolDeferral>();
  // Only the budget needs the tools kept and their order; without one, a tool not deferred costs one check here.
  const kept: ToolDescriptor[] = [];
  const order: string[] = [];
  for (const { descriptor } of options.tools) {
    if (budget !== undefined) order.push(descriptor.name);
    let pattern: (typeof patterns)[number] | undefined;
    if (patterns.length > 0) {
      const lower = descriptor.name.toLowerCase();
      for (const candidate of patterns) {
        if (!candidate.matches(descriptor, lower)) continue;
        matched.add(candidate.written);
        pattern ??= candidate; // the first pattern that matches names the deferral
      }
    }
    if (descriptor.defer === true)
      deferred.set(descriptor.name, { reason: "marked", tokens: estimateToolTokens(descriptor) });
    else if (pattern !== undefined)
      deferred.set(descriptor.name, {
        reason: "pattern",
        pattern: pattern.written,
        tokens: estimateToolTokens(descriptor),
      });
    else if (budget !== undefined) kept.push(descriptor);
  }
  const unknownPatterns = patterns.filter((pattern) => !matched.has(pattern.written)).map((pattern) => pattern.written);
  if (budget === undefined) return { deferred, unknownPatterns: [...new Set(unknownPatterns)] };
  const sentTokens = kept.reduce((sum, descriptor) => sum + estimateToolTokens(descriptor), 0);
  const searchTokens = estimateToolTokens(TOOL_SEARCH_DEFINITION);
  let total = sentTokens + (deferred.size > 0 ? searchTokens : 0);
  const candidates = kept
    .filter(isExtensionTool)
    .map((descriptor) => ({ descriptor, tokens: estimateToolTokens(descriptor) }))
    .sort((a, b) => b.tokens - a.tokens || compareCodeUnits(a.descriptor.name, b.descriptor.name));
  for (const { descriptor, tokens } of candidates) {
    if (total <= budget) break;
    if (deferred.size === 0) total += searchTokens;
    deferred.set(descriptor.name, { reason: "budget", tokens, budgetTokens: budget, sentTokens });
    total -= tokens;
  }
  const inOrder = new Map<string, ToolDeferral>();
  for (const name of order) {
    const deferral = deferred.get(name);
    if (deferral !== undefined) inOrder.set(name, deferral);
  }
  return { deferred: inOrder, unknownPatterns: [...new Set(unknownPatterns)] };
}

/** MCP tools and plugin tools (channel tools of a plugin included): the ones the budget may defer. */
function isExtensionTool(descriptor: ToolDescriptor): boolean {
  const { owner } = descriptor;
  return owner.kind === "mcp" || owner.kind === "plugin" || (owner.kind === "channel" && owner.pluginId !== undefined);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
