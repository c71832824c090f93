// definePlugin: a plugin's tools (bound to the plugin as owner, executor and availability) and its hooks.
import { ToolwireError } from "../core/errors.js";
import { describeDescriptorProblem } from "../core/filter/descriptor.js";
import type { defineTool } from "../core/register/define-tool.js";
import type {
  AfterToolCall,
  AgentTool,
  BeforeToolCall,
  JsonObject,
  ToolAvailabilityExpression,
  ToolDescriptor,
  ToolExecutorRef,
  ToolOwnerRef,
} from "../core/types.js";

/** What a plugin's tool factory gets. */
export interface PluginContext {
  readonly pluginId: string;
  /** The plugin's `options` from the config file (an empty object when none). */
  readonly options: JsonObject;
  /** The workspace root the agent works in. */
  readonly workspaceRoot: string;
  /** The folder relative module paths resolved against (the config file's folder), when the host was given one. */
  readonly configDir?: string;
  /** toolwire's `defineTool`, so a plugin module loaded by path needs no import of toolwire. */
  readonly defineTool: typeof defineTool;
}

/** The tools of a plugin: a list, or a factory given a context (it may be async). */
export type PluginTools =
  | readonly AgentTool[]
  | ((context: PluginContext) => readonly AgentTool[] | Promise<readonly AgentTool[]>);

/** What `definePlugin` takes. */
export interface PluginDefinition {
  /** Letters, digits, `_`, `-` and `.`, 1 to 64 characters; used in `plugin:<id>` policy patterns. */
  readonly id: string;
  readonly description?: string;
  readonly tools?: PluginTools;
  /** Joins the session's before chain, in plugin order, while the plugin is enabled. */
  readonly beforeToolCall?: BeforeToolCall;
  /** Joins the session's after chain, in plugin order, while the plugin is enabled. */
  readonly afterToolCall?: AfterToolCall;
}

/** A defined plugin. `createTools` gives its tools bound to it; it throws what the factory throws. */
export interface Plugin {
  readonly kind: "toolwire-plugin";
  readonly id: string;
  readonly description?: string;
  readonly beforeToolCall?: BeforeToolCall;
  readonly afterToolCall?: AfterToolCall;
  createTools(context: PluginContext): Promise<AgentTool[]>;
}

/** Codes of `PluginError`: a plugin that is not well formed, or an id no loaded plugin has. */
export type PluginErrorCode = "invalid-plugin" | "unknown-plugin";

/** A plugin defined or used wrongly: a bad id, a tool that is not a tool, an unknown plugin id. */
export class PluginError extends ToolwireError<PluginErrorCode> {
  override readonly name = "PluginError";
  constructor(
    code: PluginErrorCode,
    readonly pluginId: string | undefined,
    message: string,
  ) {
    super(code, message);
  }
}

/** What a plugin id must look like. */
export const PLUGIN_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Defines a plugin (docs/plugins.md). Its tools are owned `{ kind: "plugin", pluginId }`, run by the
 * executor `{ kind: "plugin", pluginId, toolName }` and carry the availability
 * `{ kind: "plugin-enabled", pluginId }` (with `allOf` when a tool has its own), so a disabled
 * plugin's tools are hidden with `plugin-disabled`. A channel tool of the plugin keeps its channel
 * owner, with the plugin's id. Throws `PluginError` (`invalid-plugin`) on a bad id or hook; a tool
 * owned by another plugin or an MCP server fails when `createTools` runs.
 */
export function definePlugin(definition: PluginDefinition): Plugin {
  if (typeof definition !== "object" || definition === null) {
    throw new PluginError("invalid-plugin", undefined, "A plugin must be an object with an id");
  }
  if (isPlugin(definition)) return definition;
  const { id, tools, beforeToolCall, afterToolCall, description } = definition;
  if (typeof id !== "string" || !PLUGIN_ID_PATTERN.test(id)) {
    throw new PluginError(
      "invalid-plugin",
      typeof id === "string" ? id : undefined,
      `Invalid plugin id ${JSON.stringify(id) ?? String(id)}: an id must match ${PLUGIN_ID_PATTERN}`,
    );
  }
  for (const [key, hook] of [
    ["beforeToolCall", beforeToolCall],
    ["afterToolCall", afterToolCall],
  ] as const) {
    if (hook !== undefined && typeof hook !== "function") {
      throw new PluginError("invalid-plugin", id, `Plugin ${id}: ${key} must be a function, got ${typeof hook}`);
    }
  }
  if (tools !== undefined && typeof tools !== "function" && !Array.isArray(tools)) {
    throw new PluginError("invalid-plugin", id, `Plugin ${id}: tools must be a list of tools or a function`);
  }
  return Object.freeze({
    kind: "toolwire-plugin" as const,
    id,
    ...(description === undefined ? {} : { description }),
    ...(beforeToolCall === undefined ? {} : { beforeToolCall }),
    ...(afterToolCall === undefined ? {} : { afterToolCall }),
    async createTools(context: PluginContext): Promise<AgentTool[]> {
      const listed = typeof tools === "function" ? await tools(context) : (tools ?? []);
      if (!Array.isArray(listed)) {
        throw new PluginError("invalid-plugin", id, `Plugin ${id}: its tools function must return a list of tools`);
      }
      return listed.map((tool, index) => bindToPlugin(id, tool, index));
    },
  });
}

/** Whether a value is a plugin made by `definePlugin`. */
export function isPlugin(value: unknown): value is Plugin {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Plugin).kind === "toolwire-plugin" &&
    typeof (value as Plugin).createTools === "function"
  );
}

function bindToPlugin(pluginId: string, tool: AgentTool, index: number): AgentTool {
  const fail = (message: string): never => {
    throw new PluginError("invalid-plugin", pluginId, `Plugin ${pluginId}: ${message}`);
  };
  if (typeof tool !== "object" || tool === null || typeof tool.execute !== "function") {
    fail(`tool ${index} is not a tool (expected { descriptor, execute }, such as defineTool gives)`);
  }
  const problem = describeDescriptorProblem(tool.descriptor);
  if (problem !== undefined) fail(`tool ${index}: ${problem}`);
  const descriptor = tool.descriptor;
  const owner = ownerFor(pluginId, descriptor, fail);
  const executor: ToolExecutorRef =
    owner.kind === "channel"
      ? (descriptor.executor ?? { kind: "channel", channelId: owner.channelId, actionId: descriptor.name })
      : descriptor.executor?.kind === "plugin" && descriptor.executor.pluginId === pluginId
        ? descriptor.executor
        : { kind: "plugin", pluginId, toolName: descriptor.name };
  const enabled: ToolAvailabilityExpression = { kind: "plugin-enabled", pluginId };
  const availability: ToolAvailabilityExpression =
    descriptor.availability === undefined ? enabled : { allOf: [enabled, descriptor.availability] };
  const bound: ToolDescriptor = Object.freeze({ ...descriptor, owner, executor, availability });
  return Object.freeze({
    descriptor: bound,
    ...(tool.executionMode === undefined ? {} : { executionMode: tool.executionMode }),
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    execute: (input, context) => tool.execute(input, context),
  } satisfies AgentTool);
}

function ownerFor(pluginId: string, descriptor: ToolDescriptor, fail: (message: string) => never): ToolOwnerRef {
  const owner = descriptor.owner;
  switch (owner?.kind) {
    case "core":
      return { kind: "plugin", pluginId };
    case "plugin":
      return owner.pluginId === pluginId
        ? owner
        : fail(`tool ${descriptor.name} is owned by plugin ${owner.pluginId}, not by this plugin`);
    case "channel":
      return owner.pluginId === undefined || owner.pluginId === pluginId
        ? { ...owner, pluginId }
        : fail(`tool ${descriptor.name} is a channel tool of plugin ${owner.pluginId}, not of this plugin`);
    default:
      return fail(`tool ${descriptor.name} is owned by ${owner?.kind ?? "nobody"}; a plugin tool cannot be`);
  }
}
