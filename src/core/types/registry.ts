// The registry: its sources, its options, deferral, and the report of each refresh.
import type { AgentTool } from "./agent-tool.js";
import type { ToolAvailabilityContext } from "./availability.js";
import type { ToolOwnerRef } from "./descriptor.js";
import type { ToolDefinitionChange, ToolPinStore } from "./pins.js";
import type { HiddenToolPlanEntry } from "./plan.js";
import type { PolicyLayer } from "./policy.js";
import type { ToolExecutorRoute } from "./remote-executor.js";

/** A source of tools that can change, such as an MCP connection or a plugin host. */
export interface LiveToolSource {
  readonly tools: readonly AgentTool[];
  /** Calls the listener when `tools` changed; returns an unsubscribe function. */
  onChange?(listener: () => void): () => void;
}

/** The registry source a tool came from: built-ins first, then extensions (plugins, MCP), then custom tools. */
export type ToolSource = "builtin" | "extension" | "custom";
/** One registry source: tools, live sources, or a mix. */
export type ToolSourceInput = readonly (AgentTool | LiveToolSource)[];

/** Everything `createToolRegistry` takes: the three sources, and the filters applied on every refresh. */
export interface ToolRegistryOptions {
  readonly builtins?: ToolSourceInput;
  readonly extensions?: ToolSourceInput;
  readonly custom?: ToolSourceInput;
  readonly disableBuiltInTools?: boolean;
  readonly allowedToolNames?: Iterable<string>;
  readonly policy?: readonly PolicyLayer[];
  readonly availability?: ToolAvailabilityContext;
  /**
   * Policy patterns (names, globs, `group:*`, `mcp:<id>`, `plugin:<id>`) of tools to defer: the model finds them
   * through `tool_search` instead of getting their definitions up front (docs/deferred-tools.md).
   */
  readonly defer?: readonly string[];
  /**
   * A budget, in estimated tokens (`estimateToolTokens`), for the definitions of the tools sent up front: while the
   * tools not yet deferred exceed it, MCP and plugin tools are deferred, largest first. Counted over the registry's
   * whole Map (with `tool_search` once a tool is deferred). Absent: no budget.
   */
  readonly deferBudgetTokens?: number;
  /**
   * Remote executors (docs/workers.md): a visible tool matched by a route's patterns keeps its descriptor, policy,
   * hooks and approvals here, and its execution goes to the route's executor (the first route that matches wins). The
   * Map's tool then carries `runsOn`, the executor's id. Patterns that match no tool are reported under layer
   * `executor:<id>`.
   */
  readonly executors?: readonly ToolExecutorRoute[];
  /**
   * Policy patterns of tools reachable only through code (code mode's programs, docs/deferred-tools.md): they stay
   * in the Map and callable by name, but are not sent to the model (`session.modelTools`), listed in the system
   * prompt or found by `tool_search`. A code-only tool is never deferred. `run_code`, code mode's own tool, is never
   * code-only. Patterns that match no tool are reported under layer `codeOnly`.
   */
  readonly codeOnly?: readonly string[];
  /**
   * Where MCP tools' definitions are pinned (docs/pins.md): the first listing of a tool records its fingerprint, and a
   * later one that differs hides the tool (`definition-changed`) until `acceptToolDefinition`. Default: a store in
   * memory, this registry's own.
   */
  readonly pins?: ToolPinStore;
}

/** Why a tool is reachable only through code: the registry's `codeOnly` pattern that matched it, as written. */
export interface ToolCodeOnly {
  readonly pattern: string;
}

/**
 * Why a tool is deferred: `marked` (its definition says `defer: true`), `pattern` (a registry `defer` pattern
 * matched it, named as written), or `budget` (`deferBudgetTokens`: the tools sent up front came to `sentTokens`
 * before the budget deferred any). `tokens` is the tool's own estimate.
 */
export type ToolDeferral =
  | { readonly reason: "marked"; readonly tokens: number }
  | { readonly reason: "pattern"; readonly pattern: string; readonly tokens: number }
  | { readonly reason: "budget"; readonly tokens: number; readonly budgetTokens: number; readonly sentTokens: number };

/** Why a refresh left a tool out of the Map: built-ins turned off, not in `allowedToolNames`, or a policy layer. */
type ExclusionReason = "builtins-disabled" | "not-in-allowlist" | "policy";

/** What one refresh did; nothing is dropped without a line here. */
export interface RegistryReport {
  /** Names in the Map now that were not before this refresh. */
  added: string[];
  /** Names in the Map before this refresh that are not now. */
  removed: string[];
  /**
   * Same-named tools: which source won, and whose tools they were. Within one source, kept === dropped
   * (the first tool of a name wins).
   */
  overrides: {
    name: string;
    kept: ToolSource;
    dropped: ToolSource;
    keptOwner?: ToolOwnerRef;
    droppedOwner?: ToolOwnerRef;
  }[];
  excluded: {
    name: string;
    source: ToolSource;
    reason: ExclusionReason;
    layer?: string;
    pattern?: string | null;
  }[];
  hidden: HiddenToolPlanEntry[];
  /**
   * Policy patterns that matched no tool, once per layer; `defer` patterns that matched none under layer `"defer"`,
   * `codeOnly` ones under `"codeOnly"`.
   */
  unknownPatterns: { layer: string; pattern: string }[];
  /** Tools of the Map that are deferred (docs/deferred-tools.md), in the Map's order, with why. */
  deferred: ({ name: string } & ToolDeferral)[];
  /** Tools of the Map reachable only through code (`codeOnly`), in the Map's order, with the pattern that matched. */
  codeOnly: ({ name: string } & ToolCodeOnly)[];
}

/** The session's tools: a Map rebuilt and swapped whole on every refresh. */
export interface ToolRegistry {
  /** A new Map object after every refresh, iterating in the plan's visible order. */
  readonly tools: ReadonlyMap<string, AgentTool>;
  /** Tools kept out by availability, with diagnostics. */
  readonly hidden: readonly HiddenToolPlanEntry[];
  /** The tools of the Map that are deferred, by name, in the Map's order, with why (docs/deferred-tools.md). */
  readonly deferred: ReadonlyMap<string, ToolDeferral>;
  /**
   * The tools of the Map reachable only through code (`codeOnly`), by name, in the Map's order, with the pattern that
   * matched: not sent to the model, still callable by name.
   */
  readonly codeOnly: ReadonlyMap<string, ToolCodeOnly>;
  /** The report of the latest refresh. */
  readonly lastReport: RegistryReport;
  /** The MCP tools hidden because their listed definition no longer matches its pin, in name order (docs/pins.md). */
  readonly definitionChanges: readonly ToolDefinitionChange[];
  /**
   * Pins the definition now listed for a tool hidden with `definition-changed` and refreshes, which shows it again;
   * returns the change accepted. Throws `ToolPinError` `definition-not-pending` for any other name.
   */
  acceptToolDefinition(name: string): ToolDefinitionChange;
  /**
   * Rebuilds the Map from the (changed) options and swaps it in. Throws `ToolPlanContractError` on a broken descriptor.
   */
  refresh(changes?: Partial<ToolRegistryOptions>): RegistryReport;
  /** Why a tool is present or absent, in words. */
  explain(name: string): string;
  /** Called after every refresh, including ones a live source triggered; returns an unsubscribe function. */
  onRefresh(listener: (report: RegistryReport) => void): () => void;
  /** Called when a refresh that a live source triggered failed; the registry kept its previous Map. */
  onRefreshError(listener: (error: Error) => void): () => void;
  /** Unsubscribes from the live sources. The registry keeps its last Map. */
  close(): void;
}
