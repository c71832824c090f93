// A tool as flow rules see it, in words: for `explain`.
import type { ToolFlowFacts } from "../types.js";

/** A tool's flow facts in one sentence a person can act on. */
export function describeToolFlow(
  name: string,
  facts: ToolFlowFacts,
  flow: { readonly enabled: boolean; readonly whenTainted: "approve" | "block" },
): string {
  const trust =
    facts.trust === "untrusted"
      ? `${name} is untrusted: its results taint the session`
      : `${name} is trusted: its results do not taint the session`;
  const effects = `its effects are ${facts.effects}`;
  if (!facts.guarded) return `${trust}; ${effects}, so flow rules never stop it.`;
  const meets = flow.whenTainted === "block" ? "is refused (flow-blocked)" : "needs a person's approval";
  return flow.enabled
    ? `${trust}; ${effects}, so it is guarded: while the session is tainted a call of it ${meets}.`
    : `${trust}; ${effects}, so flow rules would guard it, but they are off (set flow to turn them on).`;
}
