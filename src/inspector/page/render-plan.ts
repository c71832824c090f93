// The plan of the selected session: visible (active, sent, tokens), deferred with why, hidden with each
// diagnostic, removed with the layer and pattern: what `toolwire plan` prints.
import { describeDeferral } from "../../core/defer/describe-deferral.js";
import { flowFactWords } from "../../core/flow/describe-tool-flow.js";
import type { PlanRemovedTool, PlanView } from "../types.js";
import { el, formatClock, formatCount, replaceChildren, table } from "./dom.js";

/** Draws the plan (or says there is none: no session yet, or a stored run, which keeps none). */
export function renderPlan(container: Element, plan: PlanView | undefined, stored = false): void {
  if (plan === undefined) {
    const why = stored ? "A stored run keeps no plan." : "No session is watched yet.";
    replaceChildren(container, el("p", { class: "empty" }, why));
    return;
  }
  const parts: (Node | null)[] = [
    el(
      "p",
      { class: "muted" },
      `${plan.sent.length} tool definitions sent now, about ${formatCount(plan.definitions.estimatedTokens)} tokens; read at ${formatClock(plan.refreshedAt)}.`,
    ),
    el("p", { class: plan.flow.tainted ? "flow-reason" : "muted" }, flowLine(plan.flow)),
    el("h3", null, `Visible (${plan.visible.length})`),
    plan.visible.length === 0
      ? el("p", { class: "empty" }, "None: the model gets no tools.")
      : table(
          ["tool", "owner", "flow", "active", "sent", "tokens", "description"],
          plan.visible.map((tool) => [
            el("strong", { class: "tool-name" }, tool.name),
            tool.owner,
            flowFactWords(tool.flow),
            tool.active ? "yes" : "no",
            tool.sent ? "yes" : "no",
            formatCount(tool.estimatedTokens),
            firstLine(tool.description),
          ]),
          "plan-visible",
        ),
  ];
  if (plan.deferred.length > 0) {
    parts.push(
      el("h3", null, `Deferred (${plan.deferred.length}): found through tool_search`),
      table(
        ["tool", "tokens", "why", "loaded"],
        plan.deferred.map((entry) => [
          el("strong", { class: "tool-name" }, entry.name),
          formatCount(entry.tokens),
          describeDeferral(entry),
          entry.loaded ? "yes" : "no",
        ]),
        "plan-deferred",
      ),
    );
  }
  if (plan.hidden.length > 0) {
    parts.push(
      el("h3", null, `Hidden by availability (${plan.hidden.length})`),
      table(
        ["tool", "reason", "why"],
        plan.hidden.flatMap((entry) =>
          entry.diagnostics.map((diagnostic, index) => [
            index === 0 ? el("strong", { class: "tool-name" }, entry.name) : "",
            diagnostic.reason,
            diagnostic.message,
          ]),
        ),
        "plan-hidden",
      ),
    );
  }
  if (plan.removed.length > 0) {
    parts.push(
      el("h3", null, `Removed (${plan.removed.length})`),
      table(
        ["tool", "source", "why"],
        plan.removed.map((entry) => [
          el("strong", { class: "tool-name" }, entry.name),
          entry.source,
          removalWords(entry),
        ]),
        "plan-removed",
      ),
    );
  }
  if (plan.overrides.length > 0) {
    parts.push(
      el("h3", null, "Overrides"),
      el(
        "ul",
        null,
        ...plan.overrides.map((entry) =>
          el(
            "li",
            null,
            entry.kept === entry.dropped
              ? `${entry.name}: two ${entry.kept} tools share the name; the first was kept`
              : `${entry.name}: the ${entry.kept} tool replaces the ${entry.dropped} tool`,
          ),
        ),
      ),
    );
  }
  if (plan.unknownPatterns.length > 0) {
    parts.push(
      el("h3", null, "Patterns that match no tool"),
      el(
        "ul",
        null,
        ...plan.unknownPatterns.map((entry) => el("li", null, `layer "${entry.layer}": ${entry.pattern}`)),
      ),
    );
  }
  replaceChildren(container, ...parts);
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

function removalWords(entry: PlanRemovedTool): string {
  if (entry.reason === "policy") {
    const why =
      entry.pattern === null || entry.pattern === undefined ? "not in its allow list" : `denied by "${entry.pattern}"`;
    return `policy layer "${entry.layer ?? "?"}": ${why}`;
  }
  if (entry.reason === "builtins-disabled") return "built-in tools are disabled";
  if (entry.reason === "not-in-allowlist") return "not in allowedTools";
  return entry.reason;
}

/** Whether flow rules are on and whether untrusted content is in the session now (docs/security.md). */
function flowLine(flow: PlanView["flow"]): string {
  const rules = !flow.enabled
    ? "Flow rules are off (the taint is tracked)."
    : flow.whenTainted === "block"
      ? "Flow rules are on: while tainted, guarded calls are refused."
      : "Flow rules are on: while tainted, guarded calls need a person's approval.";
  return `${rules} ${flow.tainted ? "Untrusted content is in this session." : "No untrusted content in this session."}`;
}
