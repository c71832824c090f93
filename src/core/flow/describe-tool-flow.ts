// A tool as flow rules see it, in words: a sentence for `explain`, a few words for `plan` and the inspector.
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

/** The facts in a table cell: `untrusted` when it is, its effects, and `guarded` when it is. */
export function flowFactWords(facts: ToolFlowFacts): string {
  return [facts.trust === "untrusted" ? "untrusted" : "", facts.effects, facts.guarded ? "guarded" : ""]
    .filter((word) => word !== "")
    .join(", ");
}
