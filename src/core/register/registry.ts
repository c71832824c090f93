// The registry: merges the three sources through the gate, policy and planner into one Map, rebuilt and swapped whole.

import { planCodeOnly } from "../defer/plan-code-only.js";
import { planDeferral } from "../defer/plan-deferral.js";
import { ToolPinError } from "../errors.js";
import { type OrderedDescriptors, orderToolDescriptors, splitByAvailability } from "../filter/planner.js";
import { applyToolPolicy, compilePolicyPattern } from "../filter/policy.js";
import type {
  AgentTool,
  HiddenToolPlanEntry,
  LiveToolSource,
  RegistryReport,
  ToolCodeOnly,
  ToolDeferral,
  ToolDefinitionChange,
  ToolDescriptor,
  ToolExecutorRoute,
  ToolPinStore,
  ToolPlan,
  ToolPlanEntry,
  ToolRegistry,
  ToolRegistryOptions,
} from "../types.js";
import { wrapTool } from "../wrap/wrap-tool.js";
import { checkPins } from "./check-pins.js";
import { explainTool, type RegistrySnapshot } from "./explain.js";
import { createMemoryPinStore } from "./memory-pin-store.js";
import { routeRemoteTool } from "./route-remote-tool.js";
import { collectSourcedTools, liveSourcesOf, type SourcedTool } from "./sources.js";

type Options = Omit<ToolRegistryOptions, "allowedToolNames"> & { readonly allowedToolNames?: ReadonlySet<string> };

/**
 * Creates a registry and runs its first refresh. Every refresh reads the sources anew (live sources
 * included), applies the gate, the policy layers and availability, and swaps in a new Map whose
 * values are the tools' wrappers (one per tool, however often it is refreshed), then decides which
 * of them are deferred (`deferred`: marked `defer: true`, matched by a `defer` pattern, or over
 * `deferBudgetTokens`). MCP tools' listed definitions are pinned in `pins` (default: a store of this registry's own
 * in memory); one that no longer matches its pin is hidden with `definition-changed` until
 * `acceptToolDefinition`. A live source's change triggers a refresh by itself. Throws
 * `ToolPlanContractError` when a descriptor breaks the planner's contract, and `TypeError` for a
 * `defer` that is not a list of strings or a `deferBudgetTokens` that is not a number 0 or above.
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  checkDeferOptions(options);
  let current = normalize(options);
  const ownPins = createMemoryPinStore();
  let tools: ReadonlyMap<string, AgentTool> = new Map();
  let snapshot: RegistrySnapshot | undefined;
  let built: Built | undefined;
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
    checkDeferOptions(changes);
    const next = normalize({ ...current, ...changes });
    const result = build(next, built, next.pins ?? ownPins);
    current = next;
    built = result.built;
    tools = built.tools;
    snapshot = result.snapshot;
    report = result.report;
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
    get deferred() {
      return (snapshot as RegistrySnapshot).deferred;
    },
    get codeOnly() {
      return (snapshot as RegistrySnapshot).codeOnly;
    },
    get lastReport() {
      return report;
    },
    get definitionChanges() {
      return (snapshot as RegistrySnapshot).definitionChanges;
    },
    acceptToolDefinition(name) {
      const change = (snapshot as RegistrySnapshot).definitionChanges.find((entry) => entry.name === name);
      if (change === undefined) throw notPending(name, (snapshot as RegistrySnapshot).definitionChanges);
      (current.pins ?? ownPins).set([{ serverId: change.serverId, toolName: change.toolName, pin: change.current }]);
      refresh();
      return change;
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

/** Misuse of `defer`, `deferBudgetTokens` or `codeOnly` is a contract mistake: a `TypeError` naming the option. */
function checkDeferOptions(options: Partial<ToolRegistryOptions>): void {
  const { defer, deferBudgetTokens, codeOnly } = options;
  if (defer !== undefined && !isPatternList(defer)) {
    throw new TypeError("createToolRegistry: defer must be a list of policy patterns (strings)");
  }
  if (codeOnly !== undefined && !isPatternList(codeOnly)) {
    throw new TypeError("createToolRegistry: codeOnly must be a list of policy patterns (strings)");
  }
  if (
    deferBudgetTokens !== undefined &&
    !(typeof deferBudgetTokens === "number" && deferBudgetTokens >= 0 && Number.isFinite(deferBudgetTokens))
  ) {
    throw new TypeError(
      `createToolRegistry: deferBudgetTokens must be a number of tokens, 0 or more, got ${String(deferBudgetTokens)}`,
    );
  }
}

function isPatternList(value: unknown): boolean {
  return Array.isArray(value) && value.every((pattern) => typeof pattern === "string");
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

/** What the gate and the merge by name made of the sources. */
interface Gathered {
  readonly sourced: readonly SourcedTool[];
  readonly disableBuiltInTools: boolean | undefined;
  readonly allowedToolNames: ReadonlySet<string> | undefined;
  readonly winners: ReadonlyMap<string, SourcedTool>;
  readonly overrides: RegistryReport["overrides"];
  readonly excluded: RegistryReport["excluded"];
  /** The winners' descriptors, in source order. */
  readonly descriptors: readonly ToolDescriptor[];
}

/**
 * What a refresh built, kept for the next one. Each stage whose input is the same as last time (the same tool
 * objects in the same order, the same options) takes its output from here instead of walking every tool again:
 * a refresh of 10,000 unchanged tools then costs about one comparison per tool per stage, where a fresh merge
 * (a Map of every name), sort and wrap cost several times more per tool at that size than at 100. The Map the
 * registry hands out is still a new one every time (docs/core.md).
 */
interface Built {
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly gathered: Gathered;
  readonly order: OrderedDescriptors;
  readonly plan: ToolPlan;
  /** The Map's values, in the plan's visible order; `undefined` when an executor route decided them. */
  readonly unrouted: readonly AgentTool[] | undefined;
}

function sameSourced(a: readonly SourcedTool[], b: readonly SourcedTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const x = a[index] as SourcedTool;
    const y = b[index] as SourcedTool;
    if (x.tool !== y.tool || x.source !== y.source) return false;
  }
  return true;
}

/**
 * The gate and the merge by name. Reuses `previous` when the sources hold the same tools in the same order and
 * the gate is the same; not with an allowlist, a Set the caller may have changed since.
 */
function gather(options: Options, previous: Gathered | undefined): Gathered {
  const sourced = collectSourcedTools([
    ["builtin", options.builtins],
    ["extension", options.extensions],
    ["custom", options.custom],
  ]);
  if (
    previous !== undefined &&
    options.allowedToolNames === undefined &&
    previous.allowedToolNames === undefined &&
    options.disableBuiltInTools === previous.disableBuiltInTools &&
    sameSourced(sourced, previous.sourced)
  ) {
    return previous;
  }
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
  const descriptors: ToolDescriptor[] = [];
  for (const entry of winners.values()) descriptors.push(entry.tool.descriptor);
  return {
    sourced,
    disableBuiltInTools: options.disableBuiltInTools,
    allowedToolNames: options.allowedToolNames,
    winners,
    overrides,
    excluded,
    descriptors,
  };
}

/** The error for accepting a tool that is not hidden with `definition-changed`, naming the ones that are. */
function notPending(name: string, changes: readonly ToolDefinitionChange[]): ToolPinError {
  const pending = changes.length === 0 ? "none" : changes.map((change) => change.name).join(", ");
  return new ToolPinError(
    "definition-not-pending",
    `Tool ${JSON.stringify(name)} has no changed definition to accept (it is not hidden with definition-changed). Pending: ${pending}.`,
    name,
  );
}

function build(options: Options, previous: Built | undefined, pins: ToolPinStore) {
  const gathered = gather(options, previous?.gathered);
  const { winners } = gathered;
  // copies: a report's lists are the caller's to keep (and change)
  const excluded: RegistryReport["excluded"] = [...gathered.excluded];
  const overrides: RegistryReport["overrides"] = [...gathered.overrides];
  let descriptors = gathered.descriptors;
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
  const pinned = checkPins(descriptors, winners, pins);
  descriptors = pinned.kept;
  const order = orderToolDescriptors(descriptors, previous?.order);
  // Without availability expressions the split does not depend on the context: the same order splits the same.
  const plan =
    previous !== undefined && order === previous.order && !order.conditional
      ? previous.plan
      : splitByAvailability(order.sorted, options.availability);
  const routes = options.executors;
  const routed = routes !== undefined && routes.length > 0;
  const winnerOf = (entry: ToolPlanEntry) => (winners.get(entry.descriptor.name) as SourcedTool).tool;
  let values: readonly AgentTool[];
  if (routed) {
    const route = routerOf(routes, plan.visible, unknownPatterns);
    values = plan.visible.map((entry) => wrapTool(route(winnerOf(entry))));
  } else if (previous?.unrouted !== undefined && plan === previous.plan && gathered === previous.gathered) {
    values = previous.unrouted;
  } else {
    values = plan.visible.map((entry) => wrapTool(winnerOf(entry)));
  }
  const tools = new Map<string, AgentTool>();
  plan.visible.forEach((entry, index) => {
    tools.set(entry.descriptor.name, values[index] as AgentTool);
  });
  const hidden: HiddenToolPlanEntry[] = [...plan.hidden, ...pinned.held];
  const codeOnlyPlan = planCodeOnly(tools.values(), options.codeOnly ?? []);
  const codeOnly: ReadonlyMap<string, ToolCodeOnly> = codeOnlyPlan.codeOnly;
  for (const pattern of codeOnlyPlan.unknownPatterns) unknownPatterns.push({ layer: "codeOnly", pattern });
  // A code-only tool is never sent, so never deferred: the budget counts only the tools a model may get.
  const sendable =
    codeOnly.size === 0 ? tools.values() : [...tools.values()].filter((tool) => !codeOnly.has(tool.descriptor.name));
  const deferral = planDeferral({
    tools: sendable,
    ...(options.defer === undefined ? {} : { patterns: options.defer }),
    ...(options.deferBudgetTokens === undefined ? {} : { budgetTokens: options.deferBudgetTokens }),
  });
  const deferred: ReadonlyMap<string, ToolDeferral> = deferral.deferred;
  for (const pattern of deferral.unknownPatterns) unknownPatterns.push({ layer: "defer", pattern });
  const report: RegistryReport = {
    ...addedAndRemoved(tools, previous?.tools ?? NO_TOOLS),
    overrides,
    excluded,
    hidden,
    unknownPatterns,
    deferred: [...deferred].map(([name, why]) => ({ name, ...why })),
    codeOnly: [...codeOnly].map(([name, why]) => ({ name, ...why })),
  };
  const snapshot: RegistrySnapshot = {
    tools,
    hidden,
    winners,
    overrides,
    excluded,
    deferred,
    codeOnly,
    definitionChanges: pinned.changes,
  };
  const built: Built = { tools, gathered, order, plan, unrouted: routed ? undefined : values };
  return { built, report, snapshot };
}

const NO_TOOLS: ReadonlyMap<string, AgentTool> = new Map();

/**
 * The names `tools` has that `previous` had not, and the reverse. The same names in the same order (the common
 * refresh) are recognised walking both side by side, without a lookup per name.
 */
function addedAndRemoved(
  tools: ReadonlyMap<string, AgentTool>,
  previous: ReadonlyMap<string, AgentTool>,
): Pick<RegistryReport, "added" | "removed"> {
  if (tools.size === previous.size) {
    const before = previous.keys();
    let same = true;
    for (const name of tools.keys()) {
      if (before.next().value !== name) {
        same = false;
        break;
      }
    }
    if (same) return { added: [], removed: [] };
  }
  return {
    added: [...tools.keys()].filter((name) => !previous.has(name)),
    removed: [...previous.keys()].filter((name) => !tools.has(name)),
  };
}

/**
 * Picks each tool's executor: the first route whose patterns match it, else the tool as it is. A pattern that
 * matches none of `visible` is reported once under layer `executor:<id>`.
 */
function routerOf(
  routes: readonly ToolExecutorRoute[],
  visible: readonly ToolPlanEntry[],
  unknownPatterns: RegistryReport["unknownPatterns"],
): (tool: AgentTool) => AgentTool {
  const compiled = routes.map((route) => {
    const matchers = route.tools.map((pattern) => {
      const matches = compilePolicyPattern(pattern);
      if (!visible.some(({ descriptor }) => matches(descriptor, descriptor.name.toLowerCase()))) {
        unknownPatterns.push({ layer: `executor:${route.executor.id}`, pattern });
      }
      return matches;
    });
    return { executor: route.executor, matchers };
  });
  return (tool) => {
    const { descriptor } = tool;
    const lower = descriptor.name.toLowerCase();
    const route = compiled.find((candidate) => candidate.matchers.some((matches) => matches(descriptor, lower)));
    return route === undefined ? tool : routeRemoteTool(tool, route.executor);
  };
}
