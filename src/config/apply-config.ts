// buildFromConfig: turns a validated config into registry options, a plugin host, skills, MCP servers and session
// hooks.
import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import type {
  AfterToolCall,
  AgentTool,
  BeforeToolCall,
  JsonPrimitive,
  ToolAvailabilityContext,
  ToolRegistryOptions,
  ToolSourceInput,
} from "../core/types.js";
import type { McpProtocolChoice } from "../mcp/client/mcp-config-types.js";
import { createPluginHost, type PluginHost } from "../plugins/plugin-host.js";
import { formatSkillsPrompt } from "../skills/format-skills-prompt.js";
import { type LoadedSkills, loadSkills } from "../skills/load-skills.js";
import { ConfigError, type LoadedConfig } from "./load-config.js";
import type { BuiltinsConfig, CodeModeConfig, FlowConfig, McpServerConfig } from "./toolwire-config.js";

/** connectMcpServer's handshake timeout when neither `connectTimeoutMs` nor a shorter `timeoutMs` is set. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** What `buildFromConfig` takes besides the config. */
export interface BuildFromConfigOptions {
  /**
   * The built-in tools, or a factory given the workspace root and the config's `builtins` section (its
   * `env` says what reaches `bash`). The config turns given tools only on or off.
   */
  readonly builtins?: readonly AgentTool[] | ((workspaceRoot: string, config: BuiltinsConfig) => readonly AgentTool[]);
  /** More extension sources (such as MCP connections); the plugin host is added after them. */
  readonly extensions?: ToolSourceInput;
  readonly custom?: ToolSourceInput;
  /** Where the named environment variables are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** What this host can do, for `capability` signals (the CLI adds `"sandbox"` where bubblewrap works). */
  readonly capabilities?: ReadonlySet<string>;
  /** Resolves `config` signals with `check: "available"`. */
  readonly isConfigValueAvailable?: ToolAvailabilityContext["isConfigValueAvailable"];
  /** Loads plugin modules. Default: dynamic `import()`. */
  readonly importModule?: (specifier: string) => Promise<unknown>;
}

/** Something in the config that did not load, with what and why; the rest of the config still applies. */
export interface ConfigProblem {
  readonly area: "plugin" | "skill";
  /** The plugin id or module, or the skill file or folder. */
  readonly subject: string;
  readonly message: string;
}

/** An enabled MCP server of the config, ready for `connectMcpServer(server, options)`. */
export interface McpServerPlan {
  /** `{ id, command, args?, env?, cwd? }` (cwd resolved against the config's folder) or `{ id, url, headers? }`. */
  readonly server: McpServerConfig;
  readonly options: {
    readonly include?: readonly string[];
    readonly exclude?: readonly string[];
    readonly timeoutMs?: number;
    readonly connectTimeoutMs?: number;
    readonly protocol?: McpProtocolChoice;
  };
}

/**
 * Everything a config sets up. Give `registryOptions` to `createToolRegistry` and `session` to `createAgentSession`.
 */
export interface BuiltConfig {
  readonly workspaceRoot: string;
  readonly registryOptions: ToolRegistryOptions;
  /** The availability context; `enabledPluginIds` is the plugin host's live set. */
  readonly availability: ToolAvailabilityContext;
  readonly pluginHost: PluginHost;
  readonly skills: LoadedSkills;
  readonly mcpServers: readonly McpServerPlan[];
  /** Plugin hooks in plugin order, and the skills section for the system prompt. */
  readonly session: {
    readonly beforeToolCall: readonly BeforeToolCall[];
    readonly afterToolCall: readonly AfterToolCall[];
    readonly skillsPrompt: string;
    /** The workspace root, where results over the budget are saved (`.toolwire/results/`). */
    readonly workspace: string;
    /** The config's `maxResultChars`, when it sets one. */
    readonly maxResultChars?: number;
    /** The config's `maxSpillBytes`, when it sets one. */
    readonly maxSpillBytes?: number;
    /** The config's `telemetry`, when it turns it on. */
    readonly telemetry?: true | { readonly recordContent?: boolean };
    /**
     * The config's flow rules, when it has `flow`: give them to `createAgentSession` as `flow`, with the policy of
     * `flowPolicyFile` when there is one.
     */
    readonly flow?: Omit<FlowConfig, "policy">;
  };
  /**
   * The config's `codeMode` when it is enabled: give `createCodeMode` (toolwire/code-mode) the session and these, and
   * the registry its `source`. `registryOptions.codeOnly` already keeps the exposed tools from the model.
   */
  readonly codeMode?: CodeModeConfig;
  /**
   * The config's `flow.policy` resolved against its folder: a Cedar policy file for `createCedarPolicy`
   * (toolwire/cedar), whose policy goes to each session as `flow.policy` with that session's principal.
   */
  readonly flowPolicyFile?: string;
  /** Plugins that failed to load, plugin tool name conflicts, and malformed skills. */
  readonly problems: readonly ConfigProblem[];
}

/**
 * Builds what a validated config describes: loads its plugins (relative to the config's folder) and
 * skills, reads only the named environment variables, and returns registry options (built-ins on or
 * off, allowed names, policy layers, deferral, the plugin host as a live extension source, availability), the
 * session hooks and the enabled MCP servers. Never throws for a plugin or skill that fails: each is
 * in `problems`. Throws `ConfigError` (`invalid-config`, path `workspace`) when the workspace is not an
 * existing folder, before loading anything. Nothing global is changed.
 */
export async function buildFromConfig(
  loaded: LoadedConfig,
  options: BuildFromConfigOptions = {},
): Promise<BuiltConfig> {
  const { config, dir } = loaded;
  const workspaceRoot = resolve(dir, config.workspace ?? ".");
  await checkWorkspace(loaded, workspaceRoot);
  const pluginHost = await createPluginHost({
    plugins: config.plugins ?? [],
    baseDir: dir,
    workspaceRoot,
    ...(options.importModule === undefined ? {} : { importModule: options.importModule }),
  });
  const skills = await loadSkills((config.skills ?? []).map((folder) => resolve(dir, folder)));
  const availability = availabilityFrom(loaded, pluginHost, options);
  const builtins =
    typeof options.builtins === "function"
      ? options.builtins(workspaceRoot, config.builtins ?? {})
      : (options.builtins ?? undefined);
  const registryOptions: ToolRegistryOptions = {
    ...(builtins === undefined ? {} : { builtins }),
    extensions: [...(options.extensions ?? []), pluginHost],
    ...(options.custom === undefined ? {} : { custom: options.custom }),
    disableBuiltInTools: config.builtins?.enabled === false,
    ...(config.allowedTools === undefined ? {} : { allowedToolNames: config.allowedTools }),
    ...(config.policy === undefined ? {} : { policy: config.policy }),
    ...(config.defer === undefined ? {} : { defer: config.defer }),
    ...(config.deferBudgetTokens === undefined ? {} : { deferBudgetTokens: config.deferBudgetTokens }),
    ...(config.codeMode?.enabled === true ? { codeOnly: config.codeMode.tools ?? ["*"] } : {}),
    availability,
  };
  const problems: ConfigProblem[] = [
    ...pluginHost.problems.map((problem) => ({
      area: "plugin" as const,
      subject: problem.kind === "load-failed" ? (problem.pluginId ?? problem.module ?? "plugin") : problem.toolName,
      message: problem.message,
    })),
    ...skills.problems.map((problem) => ({ area: "skill" as const, subject: problem.file, message: problem.reason })),
  ];
  return {
    workspaceRoot,
    registryOptions,
    ...(config.codeMode?.enabled === true ? { codeMode: config.codeMode } : {}),
    ...(config.flow?.policy === undefined ? {} : { flowPolicyFile: resolve(dir, config.flow.policy) }),
    availability,
    pluginHost,
    skills,
    mcpServers: (config.mcpServers ?? []).filter((server) => server.enabled !== false).map((s) => planServer(s, dir)),
    session: {
      beforeToolCall: pluginHost.beforeToolCall,
      afterToolCall: pluginHost.afterToolCall,
      skillsPrompt: formatSkillsPrompt(skills.skills, { relativeTo: workspaceRoot }),
      workspace: workspaceRoot,
      ...(config.maxResultChars === undefined ? {} : { maxResultChars: config.maxResultChars }),
      ...(config.maxSpillBytes === undefined ? {} : { maxSpillBytes: config.maxSpillBytes }),
      ...(config.telemetry === undefined || config.telemetry === false ? {} : { telemetry: config.telemetry }),
      ...(config.flow === undefined ? {} : { flow: flowRules(config.flow) }),
    },
    problems,
  };
}

async function checkWorkspace(loaded: LoadedConfig, workspaceRoot: string): Promise<void> {
  const isFolder = await stat(workspaceRoot).then(
    (stats) => stats.isDirectory(),
    () => undefined,
  );
  if (isFolder === true) return;
  const path = loaded.config.workspace === undefined ? "(root)" : "workspace";
  const message =
    isFolder === undefined
      ? `the workspace folder ${workspaceRoot} does not exist; create it or point "workspace" at an existing folder`
      : `the workspace ${workspaceRoot} is not a folder; point "workspace" at a folder`;
  throw new ConfigError(
    "invalid-config",
    loaded.file,
    [{ path, message }],
    `Invalid config ${loaded.file}:\n- ${path}: ${message}`,
  );
}

function availabilityFrom(
  loaded: LoadedConfig,
  pluginHost: PluginHost,
  options: BuildFromConfigOptions,
): ToolAvailabilityContext {
  const stated = loaded.config.availability ?? {};
  const source = options.env ?? process.env;
  const env: Record<string, string | undefined> = {};
  for (const name of stated.env ?? []) if (Object.hasOwn(source, name)) env[name] = source[name];
  return {
    authProviderIds: new Set(stated.authProviders ?? []),
    config: stated.config ?? {},
    env,
    enabledPluginIds: pluginHost.enabledPluginIds,
    values: { ...(stated.context ?? {}) } as Record<string, JsonPrimitive>,
    capabilities: options.capabilities ?? new Set(),
    ...(options.isConfigValueAvailable === undefined ? {} : { isConfigValueAvailable: options.isConfigValueAvailable }),
  };
}

function planServer(entry: McpServerConfig, dir: string): McpServerPlan {
  const { enabled: _enabled, include, exclude, timeoutMs, connectTimeoutMs, protocol, ...server } = entry;
  // A short request timeout also bounds the handshake: a server that never answers must not hold 30 s.
  const connect =
    connectTimeoutMs ?? (timeoutMs !== undefined && timeoutMs < DEFAULT_CONNECT_TIMEOUT_MS ? timeoutMs : undefined);
  const sandboxed = "command" in server && server.sandbox !== undefined && server.sandbox !== "off";
  // A sandboxed server's cwd is its one writable folder: without one, the config's folder (not wherever toolwire runs).
  const resolved =
    "command" in server && (server.cwd !== undefined || sandboxed)
      ? {
          ...server,
          cwd: server.cwd === undefined ? dir : isAbsolute(server.cwd) ? server.cwd : resolve(dir, server.cwd),
        }
      : server;
  return {
    server: resolved as McpServerConfig,
    options: {
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(connect === undefined ? {} : { connectTimeoutMs: connect }),
      ...(protocol === undefined ? {} : { protocol }),
    },
  };
}

/** The config's flow rules without its policy file, which the runtime turns into a policy. */
function flowRules(flow: FlowConfig): Omit<FlowConfig, "policy"> {
  const { policy: _file, ...rules } = flow;
  return rules;
}
