// What the model sees of a session: the active tools, deferral and tool_search, the tools to send, the system prompt.
// All of it is recomputed from the registry on each refresh (docs/deferred-tools.md).
import { createToolSearchIndex, type ToolSearchIndex } from "../defer/create-tool-search-index.js";
import { createToolSearchTool, TOOL_SEARCH_NAME } from "../defer/create-tool-search-tool.js";
import { SessionError } from "../errors.js";
import { sameItems } from "../same-items.js";
import type { AgentTool, JsonObject, ToolCodeOnly, ToolDeferral, ToolRegistry } from "../types.js";
import { type CallableTool, callableTool } from "./callable-tool.js";
import type { SessionEmitter } from "./events.js";
import { buildSystemPrompt } from "./system-prompt.js";
import type { InputValidator } from "./validate.js";

/** A session's view of its registry; the session's getters of the same names read it (see `AgentSession`). */
interface ModelView {
  readonly activeTools: ReadonlyMap<string, AgentTool>;
  readonly activeToolNames: readonly string[];
  readonly modelTools: readonly AgentTool[];
  readonly deferredTools: readonly AgentTool[];
  readonly codeOnlyTools: readonly AgentTool[];
  readonly loadedToolNames: readonly string[];
  readonly systemPrompt: string;
  loadDeferredTools(names: Iterable<string>): string[];
  setActiveToolsByName(names: Iterable<string>): { active: string[]; missing: string[] };
  activateAllTools(): void;
  onActiveToolsChange(listener: (names: readonly string[]) => void): () => void;
  /** The active tool named `name` as calls use it, made on its first call and kept until the active tools change. */
  callable(name: string): CallableTool | undefined;
  /** Stops following the registry's refreshes. */
  close(): void;
}

/** Follows `registry`: until `setActiveToolsByName`, every registry tool is active. */
export function createModelView(options: {
  readonly registry: ToolRegistry;
  readonly baseSystemPrompt: string;
  readonly validatorFor: (schema: JsonObject) => InputValidator;
  readonly emitter: SessionEmitter;
}): ModelView {
  const { registry, baseSystemPrompt, validatorFor, emitter } = options;
  let explicit: string[] | undefined;
  let active: ReadonlyMap<string, AgentTool> = new Map();
  let activeNames: readonly string[] = [];
  let callable = new Map<string, CallableTool>();
  let deferredTools: readonly AgentTool[] = [];
  let deferredNames: ReadonlySet<string> = new Set();
  let codeOnlyTools: readonly AgentTool[] = [];
  let loaded: string[] = [];
  let modelTools: readonly AgentTool[] = [];
  let systemPrompt = buildSystemPrompt(baseSystemPrompt, []); // the prompt of no tools, until recompute finds some
  let searchIndex: { readonly tools: readonly AgentTool[]; readonly index: ToolSearchIndex } | undefined;
  const activeListeners = new Set<(names: readonly string[]) => void>();

  const indexNow = (): ToolSearchIndex => {
    if (searchIndex?.tools !== deferredTools) {
      searchIndex = {
        tools: deferredTools,
        index: createToolSearchIndex(deferredTools.map((tool) => tool.descriptor)),
      };
    }
    return searchIndex.index;
  };
  const loadDeferredTools = (names: Iterable<string>): string[] => {
    const added: string[] = [];
    try {
      for (const name of names) {
        if (typeof name !== "string" || !deferredNames.has(name) || loaded.includes(name)) continue;
        loaded.push(name);
        added.push(name);
      }
    } catch {
      // a hostile iterable: what was read so far is kept
    }
    if (added.length > 0) {
      modelTools = Object.freeze([...modelTools, ...added.map((name) => active.get(name) as AgentTool)]);
    }
    return added;
  };
  const searchTool = createToolSearchTool({
    search: (query, limit) => indexNow().search(query, limit),
    deferredCount: () => deferredTools.length,
    found: (names) => {
      loadDeferredTools(names);
    },
  });

  const recompute = () => {
    const tools = registry.tools;
    let base: ReadonlyMap<string, AgentTool>;
    if (explicit === undefined) {
      base = tools;
    } else {
      explicit = explicit.filter((name) => tools.has(name)); // a vanished name stays out until named again
      base = new Map(explicit.map((name) => [name, tools.get(name) as AgentTool]));
    }
    const deferral: ReadonlyMap<string, ToolDeferral> = registry.deferred ?? NO_DEFERRAL;
    const codeOnly: ReadonlyMap<string, ToolCodeOnly> = registry.codeOnly ?? NO_CODE_ONLY;
    const nextDeferred =
      deferral.size === 0
        ? []
        : [...base.values()].filter(
            (tool) => deferral.has(tool.descriptor.name) && !codeOnly.has(tool.descriptor.name),
          );
    const nextCodeOnly =
      codeOnly.size === 0 ? [] : [...base.values()].filter((tool) => codeOnly.has(tool.descriptor.name));
    let deferralChanged = !sameItems(nextDeferred, deferredTools);
    if (deferralChanged) {
      deferredTools = Object.freeze(nextDeferred);
      deferredNames = new Set(deferredTools.map((tool) => tool.descriptor.name));
    }
    if (!sameItems(nextCodeOnly, codeOnlyTools)) {
      codeOnlyTools = Object.freeze(nextCodeOnly);
      deferralChanged = true; // what is sent up front changes as deferral would change it
    }
    const offersSearch = deferredTools.length > 0 && !base.has(TOOL_SEARCH_NAME);
    const next: ReadonlyMap<string, AgentTool> = offersSearch
      ? new Map([...base, [TOOL_SEARCH_NAME, searchTool]])
      : base;
    const changed = !sameEntries(next, active);
    const stillLoaded = loaded.filter((name) => deferredNames.has(name));
    // What follows depends only on the entries, the deferral and the loaded names: a refresh that changed none of
    // them (the common case) keeps the lists and the prompt instead of rebuilding them over every tool.
    if (changed || deferralChanged || stillLoaded.length !== loaded.length) {
      const upFront = [...next.values()].filter(
        (tool) => !deferredNames.has(tool.descriptor.name) && !codeOnly.has(tool.descriptor.name),
      );
      modelTools = Object.freeze([...upFront, ...stillLoaded.map((name) => next.get(name) as AgentTool)]);
      systemPrompt = buildSystemPrompt(baseSystemPrompt, upFront);
    }
    loaded = stillLoaded;
    active = next;
    if (!changed) return;
    activeNames = [...next.keys()];
    callable = new Map(); // made again for each tool on its next call
    for (const listener of activeListeners) {
      try {
        listener(activeNames);
      } catch (error) {
        emitter.emit("error", {
          code: "listener-failed",
          error: new SessionError("listener-failed", "An active-tools listener threw", { cause: error }),
        });
      }
    }
  };
  recompute();
  const unsubscribeRefresh = registry.onRefresh(recompute);

  return {
    get activeTools() {
      return active;
    },
    get activeToolNames() {
      return activeNames;
    },
    get modelTools() {
      return modelTools;
    },
    get deferredTools() {
      return deferredTools;
    },
    get codeOnlyTools() {
      return codeOnlyTools;
    },
    get loadedToolNames() {
      return loaded;
    },
    get systemPrompt() {
      return systemPrompt;
    },
    loadDeferredTools,
    setActiveToolsByName(names) {
      const tools = registry.tools;
      const wanted: string[] = [];
      const missing: string[] = [];
      const seen = new Set<string>();
      for (const name of names) {
        if (name === TOOL_SEARCH_NAME && !tools.has(name)) continue; // the session's own: it follows deferral
        if (typeof name !== "string" || !tools.has(name)) missing.push(String(name));
        else if (!seen.has(name)) {
          seen.add(name);
          wanted.push(name);
        }
      }
      explicit = wanted;
      recompute();
      return { active: [...wanted], missing };
    },
    activateAllTools() {
      explicit = undefined;
      recompute();
    },
    onActiveToolsChange(listener) {
      activeListeners.add(listener);
      return () => {
        activeListeners.delete(listener);
      };
    },
    callable(name) {
      let entry = callable.get(name);
      if (entry === undefined) {
        const tool = active.get(name);
        if (tool === undefined) return undefined; // only active names are kept: a model's made-up ones are not
        entry = callableTool(tool, validatorFor);
        callable.set(name, entry);
      }
      return entry;
    },
    close: unsubscribeRefresh,
  };
}

const NO_DEFERRAL: ReadonlyMap<string, ToolDeferral> = new Map();
const NO_CODE_ONLY: ReadonlyMap<string, ToolCodeOnly> = new Map();

/** Whether two maps hold the same tools under the same names in the same order. */
function sameEntries(next: ReadonlyMap<string, AgentTool>, previous: ReadonlyMap<string, AgentTool>): boolean {
  if (next === previous) return true;
  if (next.size !== previous.size) return false;
  const names = previous.keys();
  const tools = previous.values();
  for (const [name, tool] of next) {
    if (names.next().value !== name || tools.next().value !== tool) return false;
  }
  return true;
}
