// What every command builds from toolwire.config.json: the registry, the session, MCP connections and problems.
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BuiltinToolsOptions, createBuiltinTools } from "../builtins/create-builtin-tools.js";
import { type BuiltConfig, buildFromConfig } from "../config/apply-config.js";
import { type FilePinStore, openFilePinStore, PINS_FILE_NAME } from "../config/file-pin-store.js";
import { findOutsideCode } from "../config/find-outside-code.js";
import { CONFIG_FILE_NAME, ConfigError, type LoadedConfig, loadConfig } from "../config/load-config.js";
import type { ApprovalsConfig, BuiltinsEnvConfig } from "../config/toolwire-config.js";
import { createMemoryApprovalStore } from "../core/approve/memory-approval-store.js";
import { MIN_SECRET_BYTES } from "../core/approve/state-seal.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { describeThrown } from "../core/errors.js";
import { createToolRegistry } from "../core/register/registry.js";
import type {
  ApprovalOptions,
  ApprovalStore,
  LiveToolSource,
  PolicyLayer,
  RemoteExecutor,
  ToolRegistry,
} from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import {
  BULLMQ_FEATURE,
  BULLMQ_PACKAGES,
  loadMcpModule,
  loadOptional,
  REDIS_FEATURE,
  REDIS_PACKAGES,
} from "../load-optional.js";
import type { McpConnection } from "../mcp/client/mcp-connection.js";
import { readRedisAddress } from "../redis/read-redis-address.js";
import { describeSandbox } from "../sandbox/describe-sandbox.js";
import { detectSandbox, type SandboxSupport } from "../sandbox/detect-sandbox.js";
import { resolveSandboxOptions } from "../sandbox/sandbox-options.js";

/** A problem that did not stop the command: a plugin, skill or MCP server that failed. */
export interface RuntimeProblem {
  readonly area: "plugin" | "skill" | "mcp";
  readonly subject: string;
  readonly message: string;
}

/** The sandbox state of `bash` or of one sandboxed MCP server, as `plan` and `explain` show it. */
export interface SandboxReport {
  /** `bash`, or `mcp:<server id>`. */
  readonly subject: string;
  /** Such as `bubblewrap, network off, at most 1024 processes` or `none (bubblewrap not usable: ...)`. */
  readonly state: string;
}

/** Everything a command works with. Call `close()` when done (it stops MCP servers). */
export interface Runtime {
  readonly loaded: LoadedConfig;
  /** Whether a config file was read (false: defaults, built-ins on, the current folder as workspace). */
  readonly fromFile: boolean;
  readonly built: BuiltConfig;
  readonly registry: ToolRegistry;
  readonly session: AgentSession;
  readonly connections: readonly McpConnection[];
  readonly problems: readonly RuntimeProblem[];
  /** What bubblewrap can do here (probed once per process). */
  readonly sandboxSupport: SandboxSupport;
  /** The sandbox state of `bash` (when the built-ins are on) and of each sandboxed MCP server. */
  readonly sandbox: readonly SandboxReport[];
  /**
   * The config's remote executors (docs/workers.md) that the registry routes tools to; none with
   * `remoteExecutors: false`.
   */
  readonly executors: readonly RemoteExecutor[];
  /** With the config's `"pins": true`, the pins kept in `toolwire.pins.json` beside it, which every registry uses. */
  readonly pins: FilePinStore | undefined;
  /**
   * A session of its own for one principal of the gateway: a registry over the same sources whose policy is
   * the config's and then `layers` (which only narrow). Closing it closes its registry too (the gateway closes the
   * sessions it made). Every session of the runtime claims decided approvals in one store (the config's
   * `approvals.store`, else one in memory), so an approval stays used after the session that asked for it is gone.
   */
  sessionFor(principal: string, layers: readonly PolicyLayer[]): AgentSession;
  close(): Promise<void>;
}

interface OpenRuntimeOptions {
  /** A config file named on the command line; it must exist. */
  readonly configPath?: string;
  /** Where to look for toolwire.config.json when none is named. */
  readonly cwd: string;
  /** Connect the config's MCP servers (default true). */
  readonly connectMcp?: boolean;
  /** Told about slow steps (connecting MCP servers). */
  readonly progress?: <T>(label: string, work: Promise<T>) => Promise<T>;
  readonly systemPrompt?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Told once, in one line, when the config runs code from outside its folder (see `findOutsideCode`). */
  readonly warn?: (message: string) => void;
  /** Answers the config's `approvals`; without one, calls that need approval end with `approval-required`. */
  readonly approver?: ApprovalOptions["approver"];
  /** Approvals to use instead of the config's (the demo's own). */
  readonly approvals?: ApprovalsConfig;
  /**
   * Shows the login URL of an MCP server whose `auth` needs one (default: printed on stderr). Connecting waits for
   * the login after it.
   */
  readonly onAuthorizationUrl?: (serverId: string, url: URL) => void | Promise<void>;
  /** Route tools to the config's `executors` (default true); a worker runs them here and says false. */
  readonly remoteExecutors?: boolean;
  /** Turn code mode on whatever the config says (`toolwire run --code-mode`), with the config's `codeMode` options. */
  readonly codeMode?: boolean;
}

/**
 * Loads the config (or defaults when there is none and none was named), loads its plugins and skills,
 * connects its MCP servers (a server that fails is a problem, not a failure), and builds the registry
 * and the session. Throws `ConfigError` for a config that is missing when named, not a regular file,
 * not JSON, or invalid, or whose workspace is not a folder. Before anything loads, `warn` hears once
 * about plugin modules and MCP server programs the config runs from outside its own folder.
 */
export async function openRuntime(options: OpenRuntimeOptions): Promise<Runtime> {
  // Started at once: it runs bwrap (about 10 ms) while the config loads.
  const detecting = detectSandbox();
  const defaultPath = join(options.cwd, CONFIG_FILE_NAME);
  const fromFile = options.configPath !== undefined || existsSync(defaultPath);
  const read: LoadedConfig = fromFile
    ? await loadConfig(resolve(options.cwd, options.configPath ?? defaultPath))
    : { config: {}, file: defaultPath, dir: resolve(options.cwd) };
  const loaded: LoadedConfig =
    options.codeMode === true
      ? { ...read, config: { ...read.config, codeMode: { ...read.config.codeMode, enabled: true } } }
      : read;
  // Checked before any server starts: a missing secret must not leave processes running.
  const approvals = options.approvals ?? loaded.config.approvals;
  const secret =
    approvals?.secretEnv === undefined
      ? undefined
      : approvalSecret(loaded, approvals.secretEnv, options.env ?? process.env);
  // One store for every session made here, each principal's included: a decision runs its call once, whatever
  // becomes of the session that asked. Made before any server starts too; a Redis one connects at its first claim.
  const approvalStore =
    approvals === undefined ? undefined : await openApprovalStore(loaded, approvals, options.env ?? process.env);
  // Read before any server starts too: a bad pins file leaves nothing running.
  const pins = loaded.config.pins === true ? openFilePinStore(join(loaded.dir, PINS_FILE_NAME)) : undefined;
  // Made before any server starts too (they connect on their first call): a bad entry leaves nothing running.
  const remote =
    options.remoteExecutors === false || (loaded.config.executors ?? []).length === 0
      ? undefined
      : (
          await loadOptional(
            BULLMQ_FEATURE,
            BULLMQ_PACKAGES,
            () => import("../executors/bullmq/executors-from-config.js"),
          )
        ).createConfiguredExecutors(loaded.config.executors ?? [], options.env ?? process.env);
  if (fromFile && options.warn !== undefined) {
    const outside = findOutsideCode(loaded, { cwd: options.cwd });
    if (outside.length > 0) {
      options.warn(
        `warning: ${loaded.file} runs code from outside its folder: ${outside.map((code) => `${code.path} ${code.file}`).join(", ")}`,
      );
    }
  }
  const sandboxSupport = await detecting;
  const built = await buildFromConfig(loaded, {
    builtins: (root, config) =>
      createBuiltinTools({
        root,
        ...builtinsEnvOption(config.env),
        ...(config.sandbox === undefined ? {} : { sandbox: config.sandbox }),
        ...(config.web === undefined ? {} : { web: { ...config.web, allowHosts: [...config.web.allowHosts] } }),
      }),
    capabilities: new Set(sandboxSupport.usable ? ["sandbox"] : []),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  // Parsed once, before any MCP server starts, so a bad policy file leaves nothing running; each session gets it
  // with its own principal.
  const callPolicy = built.flowPolicyFile === undefined ? undefined : await loadCallPolicy(built.flowPolicyFile);
  const problems: RuntimeProblem[] = built.problems.map((problem) => ({ ...problem }));
  const connections: McpConnection[] = [];
  if (options.connectMcp !== false && built.mcpServers.length > 0) {
    const { connectMcpServer } = await loadMcpModule(() => import("../mcp/client/connect-mcp-server.js"));
    const { createMcpAuthProvider } = await loadMcpModule(() => import("../mcp/client/oauth/mcp-auth-config.js"));
    const progress = options.progress ?? (<T>(_: string, work: Promise<T>) => work);
    const connect = async (plan: (typeof built.mcpServers)[number]) => {
      const { server } = plan;
      const show = options.onAuthorizationUrl;
      // The config's auth, with the URL shown the command's way; its secrets are read only now.
      const authProvider =
        "url" in server && server.auth !== undefined && show !== undefined
          ? createMcpAuthProvider(
              { id: server.id, url: server.url, auth: server.auth },
              {
                onAuthorizationUrl: (url) => show(server.id, url),
                ...(options.env === undefined ? {} : { env: options.env }),
              },
            )
          : undefined;
      return connectMcpServer(server, { ...plan.options, ...(authProvider === undefined ? {} : { authProvider }) });
    };
    const settled = await progress(
      `connecting ${built.mcpServers.length} MCP server${built.mcpServers.length === 1 ? "" : "s"}`,
      Promise.allSettled(built.mcpServers.map(connect)),
    );
    settled.forEach((outcome, index) => {
      const id = built.mcpServers[index]?.server.id ?? "?";
      if (outcome.status === "fulfilled") connections.push(outcome.value);
      else problems.push({ area: "mcp", subject: id, message: describeThrown(outcome.reason) });
    });
  }
  const configured =
    remote === undefined ? built.registryOptions : { ...built.registryOptions, executors: remote.routes };
  // Loaded only when on; the engine itself loads when the first program runs.
  const codeModeModule = built.codeMode === undefined ? undefined : await import("../code-mode/create-code-mode.js");
  // Flow rules, and a bridged server's questions (docs/approvals.md#questions-from-tools), ask the approver even when
  // the config requires no approvals.
  const asks: ApprovalsConfig | undefined =
    approvals ?? (built.session.flow === undefined && options.approver === undefined ? undefined : { require: [] });
  const basePrompt = options.systemPrompt ?? "";
  const systemPrompt = [basePrompt, built.session.skillsPrompt].filter((part) => part.trim() !== "").join("\n\n");
  /** A registry over the config's sources and a session over it; `layers` narrow the config's policy. */
  const openSession = (
    layers: readonly PolicyLayer[],
    approvalsSecret: string | undefined,
    principal: string,
    closeRegistry = false,
  ) => {
    const registry = createToolRegistry({
      ...configured,
      ...(layers.length === 0 ? {} : { policy: [...(configured.policy ?? []), ...layers] }),
      extensions: [...(connections as LiveToolSource[]), ...(configured.extensions ?? [])],
      ...(pins === undefined ? {} : { pins }),
    });
    const session = createAgentSession({
      registry,
      beforeToolCall: built.session.beforeToolCall,
      afterToolCall: built.session.afterToolCall,
      systemPrompt,
      closeRegistry,
      workspace: built.session.workspace,
      ...(built.session.maxResultChars === undefined ? {} : { maxResultChars: built.session.maxResultChars }),
      ...(built.session.maxSpillBytes === undefined ? {} : { maxSpillBytes: built.session.maxSpillBytes }),
      ...(built.session.telemetry === undefined ? {} : { telemetry: built.session.telemetry }),
      ...(built.session.flow === undefined
        ? {}
        : {
            flow: {
              ...built.session.flow,
              ...(callPolicy === undefined ? {} : { policy: callPolicy.forPrincipal(principal) }),
            },
          }),
      // Flow rules ask a person even when the config requires no approvals: the same approver, store and secret.
      ...(asks === undefined
        ? {}
        : {
            approvals: {
              require: [...asks.require],
              ...(asks.ttlMs === undefined ? {} : { ttlMs: asks.ttlMs }),
              ...(approvalsSecret === undefined ? {} : { secret: approvalsSecret }),
              ...(approvalStore === undefined ? {} : { store: approvalStore.store }),
              ...(options.approver === undefined ? {} : { approver: options.approver }),
            },
          }),
    });
    if (codeModeModule !== undefined && built.codeMode !== undefined) {
      const { tools, limits, declarationTokens } = built.codeMode;
      const codeMode = codeModeModule.createCodeMode(session, {
        ...(tools === undefined ? {} : { tools }),
        ...(limits === undefined ? {} : { limits }),
        ...(declarationTokens === undefined ? {} : { declarationTokens }),
      });
      registry.refresh({ custom: [...(configured.custom ?? []), codeMode.source] });
    }
    return { registry, session };
  };
  let opened: ReturnType<typeof openSession>;
  try {
    opened = openSession([], secret, LOCAL_PRINCIPAL);
  } catch (error) {
    // Pins that cannot be written, say: the servers just started must not be left running.
    await Promise.allSettled(connections.map((connection) => connection.close()));
    throw error;
  }
  const { registry, session } = opened;
  return {
    loaded,
    fromFile,
    built,
    registry,
    session,
    connections,
    problems,
    sandboxSupport,
    sandbox: sandboxReports(loaded, built, sandboxSupport),
    executors: remote?.executors ?? [],
    pins,
    sessionFor(principal, layers) {
      // Each principal's approvals are sealed with its own secret, so one principal's paused call is no
      // use to another, while every replica that shares approvals.secretEnv derives the same one.
      const derived =
        secret === undefined ? undefined : createHmac("sha256", secret).update(`principal:${principal}`).digest("hex");
      return openSession(layers, derived, principal, true).session;
    },
    async close() {
      session.close();
      registry.close();
      await Promise.allSettled(connections.map((connection) => connection.close()));
      await remote?.close();
      await approvalStore?.close();
    },
  };
}

/**
 * The principal of the CLI's own session (`run`, `call`, `serve` over stdio) in a Cedar call policy: one name on every
 * machine, so a policy file a team reviews means the same for each of them.
 */
export const LOCAL_PRINCIPAL = "local";

/** The config's Cedar policy file, parsed and checked (toolwire/cedar loads only when a config names one). */
async function loadCallPolicy(policyFile: string) {
  const { createCedarPolicy } = await import("../cedar/create-cedar-policy.js");
  return createCedarPolicy({ policyFile, principal: LOCAL_PRINCIPAL });
}

/** The config's `builtins.env` as `createBuiltinTools` takes it: `{ pass?, set? }`, copied out of the frozen config. */
function builtinsEnvOption(env: BuiltinsEnvConfig | undefined): Pick<BuiltinToolsOptions, "env"> {
  if (env === undefined) return {};
  const option = {
    ...(env.pass === undefined ? {} : { pass: [...env.pass] }),
    ...(env.set === undefined ? {} : { set: { ...env.set } }),
  };
  return { env: option };
}

/** The sandbox line of `bash` and of each enabled stdio MCP server that has a sandbox. */
function sandboxReports(loaded: LoadedConfig, built: BuiltConfig, support: SandboxSupport): SandboxReport[] {
  const reports: SandboxReport[] = [];
  const describe = (subject: string, options: unknown, root: string) => {
    try {
      reports.push({ subject, state: describeSandbox(resolveSandboxOptions(options, { root }), support) });
    } catch (error) {
      reports.push({ subject, state: `invalid: ${describeThrown(error)}` });
    }
  };
  if (loaded.config.builtins?.enabled !== false) describe("bash", loaded.config.builtins?.sandbox, built.workspaceRoot);
  for (const plan of built.mcpServers) {
    const server = plan.server;
    if ("command" in server && server.sandbox !== undefined && server.sandbox !== "off") {
      describe(`mcp:${server.id}`, server.sandbox, server.cwd ?? loaded.dir);
    }
  }
  return reports;
}

/**
 * The store the config's `approvals.store` names (`redis://…`, `rediss://…`, or `env:NAME` holding one), else one in
 * memory. Throws `ConfigError` for an unset variable or an address that is not Redis's (without its password), and
 * `MissingPeerDependencyError` for a Redis store without ioredis installed.
 */
async function openApprovalStore(
  loaded: LoadedConfig,
  approvals: ApprovalsConfig,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ readonly store: ApprovalStore; close(): Promise<void> }> {
  if (approvals.store === undefined) return { store: createMemoryApprovalStore(), close: async () => undefined };
  const refuse = (message: string): never => {
    throw new ConfigError("invalid-config", loaded.file, [{ path: "approvals.store", message }], message);
  };
  let connection = approvals.store;
  if (connection.startsWith("env:")) {
    const name = connection.slice("env:".length);
    const value = env[name];
    if (value === undefined || value === "") {
      refuse(`approvals.store is env:${name}, and ${name} is not set: set it to redis://HOST:PORT (or rediss://)`);
    }
    connection = value as string;
  }
  const address = readRedisAddress(connection);
  if ("problem" in address) {
    refuse(
      `approvals.store is not a Redis address: ${address.problem}. Write redis://HOST:PORT (or rediss://HOST:PORT for TLS, or env:NAME)`,
    );
  }
  const { createRedisApprovalStore } = await loadOptional(
    REDIS_FEATURE,
    REDIS_PACKAGES,
    () => import("../redis/create-redis-approval-store.js"),
  );
  const store = createRedisApprovalStore({ connection });
  return { store, close: () => store.close() };
}

/**
 * The approvals secret from the variable `approvals.secretEnv` names. A config naming an unset one, or one shorter
 * than `MIN_SECRET_BYTES`, is refused; the message names the variable, never its value.
 */
function approvalSecret(loaded: LoadedConfig, name: string, env: Readonly<Record<string, string | undefined>>): string {
  const value = env[name];
  const advice = `set it to a long random secret of at least ${MIN_SECRET_BYTES} bytes, such as 32 random bytes in hex (the same in every process that may finish a paused run or approval)`;
  const problem =
    value === undefined || value === ""
      ? "which is not set"
      : Buffer.byteLength(value, "utf8") < MIN_SECRET_BYTES
        ? `whose value is shorter than ${MIN_SECRET_BYTES} bytes and could be guessed from one signed state`
        : undefined;
  if (problem === undefined) return value as string;
  const message = `approvals.secretEnv names ${name}, ${problem}: ${advice}`;
  throw new ConfigError("invalid-config", loaded.file, [{ path: "approvals.secretEnv", message }], message);
}
