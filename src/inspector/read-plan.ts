// readPlan: a session's plan as the page shows it: visible, hidden with diagnostics, removed, deferred, and sent.

import { estimateToolTokens } from "../core/defer/estimate-tool-tokens.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { ownerLabel } from "../core/register/owner-label.js";
import { measureToolDefinitions } from "./measure-tool-definitions.js";
import type { PlanView } from "./types.js";

/** The most characters of a tool's description the plan keeps. */
const MAX_DESCRIPTION_CHARS = 500;

/**
 * The same data `toolwire plan` prints, read from the session and its registry's latest report: the registry's
 * visible tools (with whether each is active and sent now), the tools availability hid with each diagnostic, the
 * tools a refresh removed with the layer and pattern, the deferred tools with why, and what the definitions sent
 * now weigh per provider.
 */
export function readPlan(session: AgentSession, now = Date.now()): PlanView {
  const { registry } = session;
  const report = registry.lastReport;
  const active = new Set(session.activeToolNames);
  const modelTools = session.modelTools;
  const sent = new Set(modelTools.map((tool) => tool.descriptor.name));
  const loaded = new Set(session.loadedToolNames);
  return {
    visible: [...registry.tools.values()].map(({ descriptor }) => ({
      name: descriptor.name,
      owner: ownerLabel(descriptor.owner),
      description: shorten(descriptor.description),
      active: active.has(descriptor.name),
      sent: sent.has(descriptor.name),
      estimatedTokens: estimateToolTokens(descriptor),
      flow: session.flow.describeTool(descriptor),
    })),
    hidden: registry.hidden.map(({ descriptor, diagnostics }) => ({
      name: descriptor.name,
      owner: ownerLabel(descriptor.owner),
      description: shorten(descriptor.description),
      diagnostics: diagnostics.map(({ reason, message }) => ({ reason, message })),
    })),
    removed: report.excluded.map((entry) => ({
      name: entry.name,
      source: entry.source,
      reason: entry.reason,
      ...(entry.layer === undefined ? {} : { layer: entry.layer }),
      ...(entry.pattern === undefined ? {} : { pattern: entry.pattern }),
    })),
    deferred: report.deferred.map((entry) => ({ ...entry, loaded: loaded.has(entry.name) })),
    overrides: report.overrides.map(({ name, kept, dropped }) => ({ name, kept, dropped })),
    unknownPatterns: report.unknownPatterns.map(({ layer, pattern }) => ({ layer, pattern })),
    sent: [...sent],
    definitions: measureToolDefinitions(modelTools),
    flow: { enabled: session.flow.enabled, whenTainted: session.flow.whenTainted, tainted: session.flow.tainted },
    refreshedAt: now,
  };
}

function shorten(text: string): string {
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}
