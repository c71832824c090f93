// A tool as flow rules see it, for `plan`, `explain` and the inspector: its trust, its effects, whether it is guarded.
import type { ToolDescriptor, ToolEffects, ToolTrust } from "../types.js";
import type { Flow } from "./create-flow.js";
import { toolEffects } from "./tool-provenance.js";

/** A tool's trust and effects under the session's flow rules, and whether they guard it. */
export interface ToolFlowFacts {
  readonly trust: ToolTrust;
  readonly effects: ToolEffects;
  /** Whether a call of it needs a person (or is refused) while the session is tainted, when flow rules are on. */
  readonly guarded: boolean;
}

export function toolFlowFacts(flow: Flow, descriptor: ToolDescriptor): ToolFlowFacts {
  return {
    trust: flow.isUntrusted(descriptor) ? "untrusted" : "trusted",
    effects: toolEffects(descriptor),
    guarded: flow.isGuarded(descriptor),
  };
}

/** The facts in one sentence a person can act on. */
export function describeToolFlow(name: string, facts: ToolFlowFacts, flow: Flow): string {
  const trust =
    facts.trust === "untrusted"
      ? `${name} is untrusted: its results taint the session`
      : `${name} is trusted: its results do not taint the session`;
  const effects = `its effects are ${facts.effects}`;
  if (!facts.guarded) return `${trust}; ${effects}, so flow rules never stop it.`;
  const meets = flow.whenTainted === "block" ? "is refused (flow-blocked)" : "needs a person's approval";
  return flow.enforced
    ? `${trust}; ${effects}, so it is guarded: while the session is tainted a call of it ${meets}.`
    : `${trust}; ${effects}, so flow rules would guard it, but they are off (set flow to turn them on).`;
}
