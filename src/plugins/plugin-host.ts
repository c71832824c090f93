// The plugin host: loads plugins (by module path or in process), enables and disables them, and serves their tools and
// hooks.
import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeThrown } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AfterToolCall, AgentTool, BeforeToolCall, JsonObject, LiveToolSource } from "../core/types.js";
import { definePlugin, isPlugin, type Plugin, type PluginDefinition, PluginError } from "./define-plugin.js";

/** One plugin to load: a module path (as in the config file) or a plugin defined in process. */
export type PluginEntry =
  | {
      /** When given, the module's plugin must have this id; it also names the plugin in reports if loading fails. */
      readonly id?: string;
      /** A path relative to `baseDir`, an absolute path, a `file:` URL, or a package name. */
      readonly module: string;
      /** Default true. A disabled plugin is still loaded, so its tools show as hidden with `plugin-disabled`. */
      readonly enabled?: boolean;
      readonly options?: JsonObject;
      /** Overrides the host's `loadTimeoutMs` for this plugin. */
      readonly loadTimeoutMs?: number;
    }
  | {
      readonly plugin: Plugin | PluginDefinition;
      readonly enabled?: boolean;
      readonly options?: JsonObject;
      readonly loadTimeoutMs?: number;
    };

/** How long a plugin may take to load (import its module, then create its tools) by default. */
const DEFAULT_PLUGIN_LOAD_TIMEOUT_MS = 10_000;
const MAX_TIMER_MS = 2_147_483_647;

/** What `createPluginHost` takes. */
export interface PluginHostOptions {
  readonly plugins: readonly PluginEntry[];
  /** Where relative module paths resolve (the config file's folder). Default: the current working folder. */
  readonly baseDir?: string;
  /** Given to tool factories. Default: `baseDir`. */
  readonly workspaceRoot?: string;
  /** Loads a module by URL or package name. Default: dynamic `import()`. */
  readonly importModule?: (specifier: string) => Promise<unknown>;
  /**
   * How long each plugin may take to import its module, and again to create its tools, before it is
   * reported as failed and skipped (a top-level await or a factory promise that never settles).
   * Default `DEFAULT_PLUGIN_LOAD_TIMEOUT_MS` (10 000 ms); an entry's own `loadTimeoutMs` wins.
   */
  readonly loadTimeoutMs?: number;
}

/** Something the host could not do as asked, in words; the other plugins are unaffected. */
export type PluginProblem =
  | {
      readonly kind: "load-failed";
      /** The plugin's id when known (from the config entry or the module). */
      readonly pluginId?: string;
      readonly module?: string;
      readonly message: string;
    }
  | {
      readonly kind: "name-conflict";
      readonly toolName: string;
      /** The plugin whose tool was kept. */
      readonly kept: string;
      /** The plugin whose tool was dropped (the same plugin when it defines a name twice). */
      readonly dropped: string;
      readonly message: string;
    };

/** A loaded plugin as the host sees it now. */
export interface LoadedPlugin {
  readonly id: string;
  readonly module?: string;
  readonly description?: string;
  readonly enabled: boolean;
  /** The names of all its tools, including ones dropped in a name conflict. */
  readonly toolNames: readonly string[];
}

/** Loaded plugins as a live tool source for the registry, with their hooks and what went wrong. */
export interface PluginHost extends LiveToolSource {
  /**
   * Every loaded plugin's tools, enabled or not (a disabled plugin's tools are hidden by availability), conflicts
   * resolved.
   */
  readonly tools: readonly AgentTool[];
  /** Called after `enable`/`disable` changed something; the registry refreshes on it. */
  onChange(listener: () => void): () => void;
  readonly plugins: readonly LoadedPlugin[];
  /**
   * Live: the same Set object, updated in place by `enable`/`disable`. Put it in the registry's availability context.
   */
  readonly enabledPluginIds: ReadonlySet<string>;
  /** One hook per plugin that has one, in plugin order; a disabled plugin's hook does nothing. */
  readonly beforeToolCall: readonly BeforeToolCall[];
  /** One hook per plugin that has one, in plugin order; a disabled plugin's hook does nothing. */
  readonly afterToolCall: readonly AfterToolCall[];
  /** Load failures, then the current name conflicts. */
  readonly problems: readonly PluginProblem[];
  isEnabled(pluginId: string): boolean;
  /** Throws `PluginError` (`unknown-plugin`) for an id that is not loaded. */
  enable(pluginId: string): void;
  /** Throws `PluginError` (`unknown-plugin`) for an id that is not loaded. */
  disable(pluginId: string): void;
}

interface Slot {
  readonly plugin: Plugin;
  readonly module?: string;
  readonly tools: readonly AgentTool[];
}

/**
 * Loads every plugin in order and returns the host. Never throws for a plugin: one whose module
 * cannot be imported, exports no plugin, has a bad id or tool, repeats an earlier id, or whose tool
 * factory throws, or whose import or tool factory does not settle within its load timeout, is
 * reported in `problems` (kind `load-failed`) and skipped; the rest load. When
 * two tools share a name, the first from an enabled plugin wins (else the first), and the conflict
 * is reported with the kept and dropped plugin and why.
 */
export async function createPluginHost(options: PluginHostOptions): Promise<PluginHost> {
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const workspaceRoot = resolve(options.workspaceRoot ?? baseDir);
  const importModule = options.importModule ?? ((specifier: string) => import(specifier));
  const slots: Slot[] = [];
  const loadProblems: PluginProblem[] = [];
  const enabled = new Set<string>();

  const context = {
    baseDir,
    workspaceRoot,
    importModule,
    configDir: options.baseDir === undefined ? undefined : baseDir,
    loadTimeoutMs: options.loadTimeoutMs,
  };
  for (const entry of options.plugins) {
    const outcome = await loadEntry(entry, context, slots);
    if ("kind" in outcome) {
      loadProblems.push(outcome);
      continue;
    }
    slots.push(outcome);
    if (entry.enabled !== false) enabled.add(outcome.plugin.id);
  }

  const listeners = new Set<() => void>();
  let resolved = resolveConflicts(slots, enabled);

  const setEnabled = (pluginId: string, on: boolean) => {
    if (!slots.some((slot) => slot.plugin.id === pluginId)) {
      const known = slots.map((slot) => slot.plugin.id);
      throw new PluginError(
        "unknown-plugin",
        pluginId,
        `No plugin "${pluginId}" is loaded. Loaded plugins: ${known.length === 0 ? "none" : known.join(", ")}`,
      );
    }
    if (enabled.has(pluginId) === on) return;
    if (on) enabled.add(pluginId);
    else enabled.delete(pluginId);
    resolved = resolveConflicts(slots, enabled);
    for (const listener of [...listeners]) listener();
  };

  const beforeToolCall: BeforeToolCall[] = [];
  const afterToolCall: AfterToolCall[] = [];
  for (const { plugin } of slots) {
    const { id, beforeToolCall: before, afterToolCall: after } = plugin;
    if (before !== undefined) beforeToolCall.push((event) => (enabled.has(id) ? before(event) : undefined));
    if (after !== undefined) afterToolCall.push((event) => (enabled.has(id) ? after(event) : undefined));
  }

  return {
    get tools() {
      return resolved.tools;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get plugins() {
      return slots.map(({ plugin, module, tools }) =>
        Object.freeze({
          id: plugin.id,
          ...(module === undefined ? {} : { module }),
          ...(plugin.description === undefined ? {} : { description: plugin.description }),
          enabled: enabled.has(plugin.id),
          toolNames: tools.map((tool) => tool.descriptor.name),
        }),
      );
    },
    enabledPluginIds: enabled,
    beforeToolCall: Object.freeze(beforeToolCall),
    afterToolCall: Object.freeze(afterToolCall),
    get problems() {
      return [...loadProblems, ...resolved.conflicts];
    },
    isEnabled: (pluginId) => enabled.has(pluginId),
    enable: (pluginId) => setEnabled(pluginId, true),
    disable: (pluginId) => setEnabled(pluginId, false),
  };
}

interface LoadContext {
  readonly baseDir: string;
  readonly workspaceRoot: string;
  readonly configDir: string | undefined;
  readonly importModule: (specifier: string) => Promise<unknown>;
  readonly loadTimeoutMs: number | undefined;
}

/** Loads one entry: its plugin and tools, or the reason it failed. */
async function loadEntry(
  entry: PluginEntry,
  context: LoadContext,
  loaded: readonly Slot[],
): Promise<Slot | PluginProblem> {
  const module = "module" in entry ? entry.module : undefined;
  const configuredId = "module" in entry ? entry.id : undefined;
  const failed = (message: string, pluginId = configuredId): PluginProblem => ({
    kind: "load-failed",
    ...(pluginId === undefined ? {} : { pluginId }),
    ...(module === undefined ? {} : { module }),
    message,
  });
  const timeoutMs = entry.loadTimeoutMs ?? context.loadTimeoutMs ?? DEFAULT_PLUGIN_LOAD_TIMEOUT_MS;
  if (!(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    return failed(
      `loadTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`,
    );
  }
  const notAFile = module === undefined ? undefined : await notRegularFile(toSpecifier(module, context.baseDir));
  if (notAFile !== undefined) return failed(`Cannot load plugin module ${module}: ${notAFile}`);
  let plugin: Plugin;
  try {
    plugin =
      module === undefined
        ? definePlugin((entry as { plugin: Plugin | PluginDefinition }).plugin)
        : pluginFromModule(
            module,
            await settleWithin(
              context.importModule(toSpecifier(module, context.baseDir)),
              timeoutMs,
              `its module did not finish loading within ${timeoutMs} ms (a top-level await that never settles?)`,
            ),
          );
  } catch (error) {
    const pluginId = error instanceof PluginError && error.pluginId !== undefined ? error.pluginId : configuredId;
    const why = describeThrown(error);
    return failed(module === undefined ? why : `Cannot load plugin module ${module}: ${why}`, pluginId);
  }
  if (configuredId !== undefined && configuredId !== plugin.id) {
    return failed(`Plugin module ${module} defines plugin "${plugin.id}", but the config names it "${configuredId}"`);
  }
  const earlier = loaded.find((slot) => slot.plugin.id === plugin.id);
  if (earlier !== undefined) {
    const from = earlier.module === undefined ? "" : ` from ${earlier.module}`;
    return failed(`Duplicate plugin id "${plugin.id}": already loaded${from}`, plugin.id);
  }
  try {
    const tools = await settleWithin(
      plugin.createTools({
        pluginId: plugin.id,
        options: Object.freeze({ ...(entry.options ?? {}) }) as JsonObject,
        workspaceRoot: context.workspaceRoot,
        ...(context.configDir === undefined ? {} : { configDir: context.configDir }),
        defineTool,
      }),
      timeoutMs,
      `its tools function did not settle within ${timeoutMs} ms`,
    );
    return { plugin, ...(module === undefined ? {} : { module }), tools: Object.freeze(tools) };
  } catch (error) {
    return failed(`Plugin ${plugin.id} failed while creating its tools: ${describeThrown(error)}`, plugin.id);
  }
}

/** `work`'s outcome, or a rejection with `message` once `ms` pass first. */
function settleWithin<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    // Not unref'd: a module awaiting a promise that never settles holds nothing else that keeps the process alive.
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Why a `file:` specifier cannot be a module (a FIFO, device, socket or folder), or `undefined`. Importing a
 * FIFO would block a thread of Node's pool for good, and then even `process.exit` waits for it.
 */
async function notRegularFile(specifier: string): Promise<string | undefined> {
  if (!specifier.startsWith("file:")) return undefined;
  let stats: Awaited<ReturnType<typeof stat>>;
  try {
    stats = await stat(fileURLToPath(specifier));
  } catch {
    return undefined; // missing or unreadable: the import says why
  }
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return "it is a folder, not a module file";
  return `it is ${stats.isFIFO() ? "a FIFO (named pipe)" : stats.isSocket() ? "a socket" : "a device"}, not a regular file`;
}

function toSpecifier(module: string, baseDir: string): string {
  if (module.startsWith("file:")) return module;
  if (isAbsolute(module) || module.startsWith("./") || module.startsWith("../") || module === "." || module === "..") {
    return pathToFileURL(resolve(baseDir, module)).href;
  }
  return module; // a package name: resolved by Node from toolwire's own location
}

function pluginFromModule(module: string, namespace: unknown): Plugin {
  const exports = (typeof namespace === "object" && namespace !== null ? namespace : {}) as Record<string, unknown>;
  const candidate = exports.default ?? exports.plugin;
  if (typeof candidate !== "object" || candidate === null) {
    throw new PluginError(
      "invalid-plugin",
      undefined,
      `module ${module} exports no plugin: expected a default export (or an export named "plugin") made with definePlugin or shaped { id, tools?, beforeToolCall?, afterToolCall? }`,
    );
  }
  return isPlugin(candidate) ? candidate : definePlugin(candidate as PluginDefinition);
}

function resolveConflicts(slots: readonly Slot[], enabled: ReadonlySet<string>) {
  const winners = new Map<string, { tool: AgentTool; pluginId: string }>();
  const conflicts: PluginProblem[] = [];
  // enabled plugins first (in plugin order), then disabled ones: a disabled plugin never shadows an enabled one
  const ordered = [...slots.filter((s) => enabled.has(s.plugin.id)), ...slots.filter((s) => !enabled.has(s.plugin.id))];
  for (const slot of ordered) {
    const pluginId = slot.plugin.id;
    for (const tool of slot.tools) {
      const name = tool.descriptor.name;
      const earlier = winners.get(name);
      if (earlier === undefined) {
        winners.set(name, { tool, pluginId });
        continue;
      }
      const why =
        earlier.pluginId === pluginId
          ? `plugin ${pluginId} defines ${name} more than once; the first one wins`
          : enabled.has(earlier.pluginId) && !enabled.has(pluginId)
            ? `plugin ${earlier.pluginId} is enabled and plugin ${pluginId} is not`
            : `plugin ${earlier.pluginId} comes before plugin ${pluginId} in the plugin list`;
      conflicts.push({
        kind: "name-conflict",
        toolName: name,
        kept: earlier.pluginId,
        dropped: pluginId,
        message: `Tool name conflict on ${name}: kept the tool of plugin ${earlier.pluginId}, dropped the one of plugin ${pluginId} (${why})`,
      });
    }
  }
  // the Map keeps the winners in plugin order only within each bucket; restore plugin order for stable output
  const order = new Map(slots.map((slot, index) => [slot.plugin.id, index]));
  const tools = Object.freeze(
    [...winners.values()]
      .sort((a, b) => (order.get(a.pluginId) as number) - (order.get(b.pluginId) as number))
      .map((winner) => winner.tool),
  );
  return { tools, conflicts };
}
