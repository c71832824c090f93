// ToolwireConfig: the contents of toolwire.config.json once validated, section by section.

import type { WebFetchOptions } from "../builtins/web-fetch-options.js";
import type { JsonObject, JsonPrimitive, PolicyLayer } from "../core/types.js";
import type { ExecutorConfig } from "../executors/executor-config.js";
import type { McpServerConfig } from "../mcp/client/mcp-config-types.js";
import type { GatewayOptions } from "../mcp/server/gateway/gateway-options.js";
import type { ServeTasksOptions } from "../mcp/server/tasks/serve-tasks-options.js";
import type { SandboxOptions } from "../sandbox/sandbox-options.js";

/** A plugin entry of the config file. */
export interface PluginConfig {
  readonly id?: string;
  /** Relative to the config file's folder, or a package name. */
  readonly module: string;
  /** Default true. */
  readonly enabled?: boolean;
  readonly options?: JsonObject;
  /** How long importing the module and running its tool factory may take. Default 10 000 ms. */
  readonly loadTimeoutMs?: number;
}

export type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from "../mcp/client/mcp-config-types.js";

/** The environment of the built-in `bash` tool, as the config file states it. */
export interface BuiltinsEnvConfig {
  /** Names or globs (`*` matches anything) of this process's environment variables that reach `bash`. */
  readonly pass?: readonly string[];
  /** Variables set for `bash`, by name. */
  readonly set?: Readonly<Record<string, string>>;
}

/** The `builtins` section. */
export interface BuiltinsConfig {
  /** Default true. */
  readonly enabled?: boolean;
  readonly env?: BuiltinsEnvConfig;
  /** How `bash` is confined. Default `{ mode: "auto" }` (see docs/sandbox.md). */
  readonly sandbox?: "off" | SandboxOptions;
  /** Adds `web_fetch` (docs/web-fetch.md), fetching from these hosts only. Absent: no `web_fetch`. */
  readonly web?: BuiltinsWebConfig;
}

/** The `builtins.web` section: `web_fetch`'s options as the config file states them. */
export type BuiltinsWebConfig = Omit<WebFetchOptions, "lookupHost">;

/** The availability context, as the config file states it. */
export interface AvailabilityConfig {
  readonly authProviders?: readonly string[];
  readonly config?: JsonObject;
  /** Names of environment variables to read; only these are visible to `env` signals. */
  readonly env?: readonly string[];
  readonly context?: Readonly<Record<string, JsonPrimitive>>;
}

/**
 * Code mode (docs/code-mode.md): run_code joins the tools, and the tools it exposes are no longer sent to the model one
 * by one (they stay callable by name).
 */
export interface CodeModeConfig {
  readonly enabled?: boolean;
  /** Policy patterns of the tools a program may call. Default: every tool. */
  readonly tools?: readonly string[];
  readonly limits?: {
    readonly timeoutMs?: number;
    readonly memoryBytes?: number;
    readonly maxToolCalls?: number;
    readonly maxOutputChars?: number;
  };
  /** The estimated tokens run_code's description may spend on declarations. Default 12 000. */
  readonly declarationTokens?: number;
}

/**
 * Flow rules (docs/security.md): once an untrusted tool's result is in the session, guarded calls need a person's
 * approval or are refused. Present, even empty, turns them on.
 */
export interface FlowConfig {
  /** Policy patterns of more tools whose results taint the session. */
  readonly untrusted?: readonly string[];
  /** Policy patterns of more tools to guard (beside every tool whose effects are external). */
  readonly guarded?: readonly string[];
  /** Default `"approve"`. */
  readonly whenTainted?: "approve" | "block";
  /** A Cedar policy file (docs/cedar.md), relative to the config's folder, judging every call before its approval. */
  readonly policy?: string;
}

/** Which calls need a person's approval: policy patterns, and how long a request stays open. */
export interface ApprovalsConfig {
  readonly require: readonly string[];
  readonly ttlMs?: number;
  /** The environment variable with `approvals.secret`. */
  readonly secretEnv?: string;
  /**
   * Where decided approval ids are claimed: `redis://…`, `rediss://…`, or `env:NAME` (the address in that
   * variable), shared by every process that uses it. Default: in this process's memory.
   */
  readonly store?: string;
}

/**
 * The `serve` section: how `toolwire serve --http` lets clients in and how much each may do. The same fields as
 * `serveMcp`'s gateway options; `audit.file` is relative to the config's folder and a token may be `env:NAME`.
 */
export type ServeConfig = Omit<GatewayOptions, "tasks"> & {
  /** `tasks.store` is `"memory"`, or where replicas share tasks: `redis://…`, `rediss://…` or `env:NAME`. */
  readonly tasks?: Omit<ServeTasksOptions, "store"> & { readonly store?: string };
};

export type { ExecutorConfig } from "../executors/executor-config.js";

/** The contents of `toolwire.config.json` once validated. */
export interface ToolwireConfig {
  readonly $schema?: string;
  readonly workspace?: string;
  /** The most characters of text a tool result may hold before it is saved to a file and previewed. Default 50 000. */
  readonly maxResultChars?: number;
  /** The most bytes the results saved in the workspace may take. Default 1 GiB. */
  readonly maxSpillBytes?: number;
  /** OpenTelemetry for every call, through the global tracer and meter (`recordContent` adds arguments and results). */
  readonly telemetry?: boolean | { readonly recordContent?: boolean };
  readonly builtins?: BuiltinsConfig;
  readonly allowedTools?: readonly string[];
  readonly policy?: readonly PolicyLayer[];
  /**
   * Policy patterns of tools the model finds through `tool_search` instead of getting up front
   * (docs/deferred-tools.md).
   */
  readonly defer?: readonly string[];
  /**
   * While the tools sent up front exceed this many estimated tokens, MCP and plugin tools are deferred, largest first.
   */
  readonly deferBudgetTokens?: number;
  readonly plugins?: readonly PluginConfig[];
  /** Remote executors (docs/workers.md): matching tools run as BullMQ jobs on `toolwire worker` processes. */
  readonly executors?: readonly ExecutorConfig[];
  readonly approvals?: ApprovalsConfig;
  readonly codeMode?: CodeModeConfig;
  /** Where `toolwire run` journals its runs (docs/durable-runs.md): `file:PATH` or `postgres:env:NAME`. */
  readonly journal?: string;
  readonly flow?: FlowConfig;
  readonly mcpServers?: readonly McpServerConfig[];
  /**
   * Keep MCP tools' pinned definitions in `toolwire.pins.json` beside the config (docs/pins.md). Default false: pins
   * live in memory, per session.
   */
  readonly pins?: boolean;
  readonly availability?: AvailabilityConfig;
  readonly skills?: readonly string[];
  readonly serve?: ServeConfig;
}
