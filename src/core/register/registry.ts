// The registry: merges the three sources through the gate, policy and planner into one Map, rebuilt and swapped whole.

import { buildToolPlan } from "../filter/planner.js";
import { applyToolPolicy } from "../filter/policy.js";
import type {
  AgentTool,
  HiddenToolPlanEntry,
  LiveToolSource,
  RegistryReport,
  ToolDescriptor,
  ToolRegistry,
  ToolRegistryOptions,
} from "../types.js";
import { wrapTool } from "../wrap/wrap-tool.js";
import { explainTool, type RegistrySnapshot } from "./explain.js";
import { collectSourcedTools, liveSourcesOf, type SourcedTool } from "./sources.js";

type Options = Omit<ToolRegistryOptions, "allowedToolNames"> & { readonly allowedToolNames?: ReadonlySet<string> };

/**
 * Creates a registry and runs its first refresh. Every refresh reads the sources anew (live sources
 * included), applies the gate, the policy layers and availability, and swaps in a new Map whose
 * values are the tools' wrappers (one per tool, however often it is refreshed). A live source's
 * change triggers a refresh by itself. Throws `ToolPlanContractError` when a descriptor breaks the
 * planner's contract.
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  let current = normalize(options);
  let tools: ReadonlyMap<string, AgentTool> = new Map();
  let snapshot: RegistrySnapshot | undefined;
  let report: RegistryReport;
  const refreshListeners = new Set<(report: RegistryReport) => void>();
  const errorListeners = new Set<(error: Error) => void>();
  const subscriptions = new Map<LiveToolSource, () => void>();
  let closed = false;

  const onSourceChange = () => {
    if (closed) return;
    try {
      refresh();
    } catch (error) {
      for (const listener of errorListeners) listener(error as Error);
    }
  };

  function refresh(changes: Partial<ToolRegistryOptions> = {}): RegistryReport {
    const next = normalize({ ...current, ...changes });
    const built = build(next, tools);
    current = next;
    tools = built.tools;
    snapshot = built.snapshot;
    report = built.report;
    if (!closed) resubscribe(next);
    for (const listener of refreshListeners) listener(report);
    return report;
  }

  function resubscribe(options: Options) {
    const live = liveSourcesOf([options.builtins, options.extensions, options.custom]);
    for (const [source, unsubscribe] of subscriptions) {
      if (!live.has(source)) {
        unsubscribe();
        subscriptions.delete(source);
      }
    }
    for (const source of live) {
      if (!subscriptions.has(source) && source.onChange !== undefined) {
        subscriptions.set(source, source.onChange(onSourceChange));
      }
    }
  }

  const subscribe = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

  report = refresh();
  return {
    get tools() {
      return tools;
    },
    get hidden() {
      return (snapshot as RegistrySnapshot).hidden;
    },
    get lastReport() {
      return report;
    },
    refresh,
    explain: (name) => explainTool(snapshot as RegistrySnapshot, name),
    onRefresh: (listener) => subscribe(refreshListeners, listener),
    onRefreshError: (listener) => subscribe(errorListeners, listener),
    close() {
      closed = true;
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
    },
  };
}

function normalize(options: ToolRegistryOptions): Options {
  const { allowedToolNames } = options;
  return {
    ...options,
    allowedToolNames:
      allowedToolNames === undefined
        ? undefined
        : allowedToolNames instanceof Set
          ? allowedToolNames
          : new Set(allowedToolNames),
  };
}

function owners(kept: SourcedTool, dropped: SourcedTool) {
  return { keptOwner: kept.tool.descriptor.owner, droppedOwner: dropped.tool.descriptor.owner };
}

function build(options: Options, previous: ReadonlyMap<string, AgentTool>) {
  const sourced = collectSourcedTools([
    ["builtin", options.builtins],
    ["extension", options.extensions],
    ["custom", options.custom],
  ]);
  const excluded: RegistryReport["excluded"] = [];
  const overrides: RegistryReport["overrides"] = [];
  const winners = new Map<string, SourcedTool>();
  for (const entry of sourced) {
    const name = entry.tool.descriptor.name;
    if (entry.source === "builtin" && options.disableBuiltInTools === true) {
      excluded.push({ name, source: entry.source, reason: "builtins-disabled" });
      continue;
    }
    if (options.allowedToolNames !== undefined && !options.allowedToolNames.has(name)) {
      excluded.push({ name, source: entry.source, reason: "not-in-allowlist" });
      continue;
    }
    const earlier = winners.get(name);
    if (earlier === undefined) {
      winners.set(name, entry);
    } else if (earlier.source === entry.source) {
      // within a source, the first wins
      overrides.push({ name, kept: entry.source, dropped: entry.source, ...owners(earlier, entry) });
    } else {
      overrides.push({ name, kept: entry.source, dropped: earlier.source, ...owners(entry, earlier) });
      winners.set(name, entry);
    }
  }
  let descriptors: readonly ToolDescriptor[] = [...winners.values()].map((entry) => entry.tool.descriptor);
  let unknownPatterns: RegistryReport["unknownPatterns"] = [];
  if (options.policy !== undefined && options.policy.length > 0) {
    const policy = applyToolPolicy(descriptors, options.policy);
    for (const removal of policy.removed) {
      const source = (winners.get(removal.name) as SourcedTool).source;
      excluded.push({ name: removal.name, source, reason: "policy", layer: removal.layer, pattern: removal.pattern });
    }
    descriptors = policy.kept;
    unknownPatterns = policy.unknownPatterns;
  }
  const plan = buildToolPlan({ descriptors, availability: options.availability });
  const tools = new Map<string, AgentTool>();
  for (const entry of plan.visible) {
    tools.set(entry.descriptor.name, wrapTool((winners.get(entry.descriptor.name) as SourcedTool).tool));
  }
  const hidden: HiddenToolPlanEntry[] = [...plan.hidden];
  const report: RegistryReport = {
    added: [...tools.keys()].filter((name) => !previous.has(name)),
    removed: [...previous.keys()].filter((name) => !tools.has(name)),
    overrides,
    excluded,
    hidden,
    unknownPatterns,
  };
  const snapshot: RegistrySnapshot = { tools, hidden, winners, overrides, excluded };
  return { tools, report, snapshot };
}
