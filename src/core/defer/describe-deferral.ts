// describeDeferral: why a tool is deferred, in a few words, for `toolwire plan` and the inspector's plan.
import type { ToolDeferral } from "../types.js";

/** `marked defer: true in its definition`, the defer pattern it matches, or the budget it went over. */
export function describeDeferral(deferral: ToolDeferral): string {
  switch (deferral.reason) {
    case "marked":
      return "marked defer: true in its definition";
    case "pattern":
      return `matches the defer pattern "${deferral.pattern}"`;
    case "budget":
      return `over deferBudgetTokens ${deferral.budgetTokens} (the tools came to ${deferral.sentTokens}; largest MCP and plugin tools first)`;
  }
}
