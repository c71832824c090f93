// `toolwire serve`: an MCP gateway over the built-ins, the plugins and the upstream MCP servers of the config.

import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import type { ServeConfig } from "../../config/toolwire-config.js";
import type { AgentSession } from "../../core/dispatch/session.js";
import type { PolicyLayer } from "../../core/types.js";
import type { Inspector } from "../../inspector/create-inspector.js";
import { loadMcpModule, loadOptional, REDIS_FEATURE, REDIS_PACKAGES } from "../../load-optional.js";
import type { GatewayAuthOptions, ServeTokenConfig } from "../../mcp/server/gateway/gateway-auth-options.js";
import type { GatewayOptions } from "../../mcp/server/gateway/gateway-options.js";
import { isLoopbackHost } from "../../mcp/server/gateway/is-loopback-host.js";
import { readAppFromConnections } from "../../mcp/server/read-app-from-connections.js";
import type { ServeTasksOptions } from "../../mcp/server/tasks/serve-tasks-options.js";
import type { TaskRecord } from "../../mcp/server/tasks/task-record.js";
import { readRedisAddress } from "../../redis/read-redis-address.js";
import { CliError, EXIT_CONFIG, EXIT_USAGE } from "../exit-codes.js";
import type { Output } from "../output.js";
import type { Runtime } from "../runtime.js";

/** The environment variable with a token every client may present (principal `default`). */
const SERVE_TOKEN_ENV = "TOOLWIRE_SERVE_TOKEN";

interface ServeCommandOptions {
  /** Serve Streamable HTTP on this port; stdio when absent. */
  readonly http?: number;
  readonly host?: string;
  /** `false` (`--no-auth`): ask HTTP clients for no credential; loopback hosts only. */
  readonly auth?: boolean;
  /** `--inspect`: the inspector follows the served sessions (each principal's, over HTTP). */
  readonly inspector?: Inspector;
}

/** `--no-auth` on a host other people can reach is refused: anyone there could run the tools as this user. */
export function checkServeAuthFlag(options: { readonly host?: string; readonly auth?: boolean }): void {
  const host = options.host ?? "127.0.0.1";
  if (options.auth === false && !isLoopbackHost(host)) {
    throw new CliError(
      EXIT_USAGE,
      `--no-auth is refused on ${host}: without credentials anyone who reaches it could run the tools; serve on 127.0.0.1, or configure serve.auth`,
    );
  }
}

/**
 * Serves over stdio, or over Streamable HTTP with credentials (docs/serve.md), until SIGINT or SIGTERM,
 * or the client leaves (stdio). Over HTTP each principal gets its own session under its token's policy.
 */
export async function runServe(
  runtime: Runtime,
  output: Output,
  options: ServeCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { serveMcp } = await loadMcpModule(() => import("../../mcp/server/serve-mcp.js"));
  const names = runtime.session.activeToolNames;
  const { inspector } = options;
  if (options.http === undefined) {
    inspector?.watch(runtime.session, { label: "stdio" });
    const { listTtlMs } = runtime.loaded.config.serve ?? {};
    const tasks = await openTasks(runtime, runtime.loaded.config.serve ?? {}, env);
    const handle = await serveMcp(runtime.session, {
      transport: "stdio",
      ...(listTtlMs === undefined ? {} : { listTtlMs }),
      ...(tasks === undefined ? {} : { tasks }),
      readAppResource: readAppFromConnections(runtime.connections),
    });
    // stdout belongs to the protocol on stdio: everything for people goes to stderr.
    output.error(`toolwire serve: ${names.length} tools (${names.join(", ")}) on stdio`);
    reportProblems(runtime, output);
    return waitForStop(handle, output);
  }
  checkServeAuthFlag(options);
  const config = runtime.loaded.config.serve ?? {};
  const auth = options.auth === false ? undefined : await gatewayAuth(runtime, config, env);
  const tasks = await openTasks(runtime, config, env);
  // The config's own session shows the plan before any client comes; each principal's session joins when made.
  inspector?.watch(runtime.session, { label: "config" });
  const sessionFor = (principal: { readonly id: string; readonly policy: readonly PolicyLayer[] }) => {
    const session = runtime.sessionFor(principal.id, principal.policy);
    return inspector === undefined ? session : watchedUntilClosed(inspector, session, principal.id);
  };
  const handle = await serveMcp(sessionFor, {
    transport: "http",
    port: options.http,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...gatewayOptions(runtime, config),
    readAppResource: readAppFromConnections(runtime.connections),
    ...(tasks === undefined ? {} : { tasks }),
    onWarning: (message) => output.error(`toolwire serve: ${message}`),
    ...(auth === undefined ? {} : { auth: auth.options }),
  });
  output.error(`toolwire serve: ${names.length} tools (${names.join(", ")}) at ${handle.url}`);
  output.error(`toolwire serve: auth: ${auth === undefined ? "none (--no-auth, loopback only)" : auth.describe}`);
  if (auth?.generated !== undefined) {
    output.error(`toolwire serve: token (shown once): ${auth.generated}`);
    output.error(
      `toolwire serve: clients send it as "Authorization: Bearer <token>"; set ${SERVE_TOKEN_ENV} to choose it`,
    );
  }
  if (handle.resourceMetadataUrl !== undefined) {
    output.error(`toolwire serve: protected resource metadata at ${handle.resourceMetadataUrl}`);
  }
  reportProblems(runtime, output);
  return waitForStop(handle, output);
}

/**
 * The credentials: the config's tokens and OAuth, the token in the environment, or one made now. The gateway's auth
 * (with its OAuth verifier) is loaded only here, for HTTP: serving over stdio does not load it.
 */
async function gatewayAuth(
  runtime: Runtime,
  config: ServeConfig,
  env: NodeJS.ProcessEnv,
): Promise<{ options: GatewayAuthOptions; describe: string; generated?: string }> {
  const { resolveServeTokens } = await import("../../mcp/server/gateway/authenticate.js");
  const tokens: ServeTokenConfig[] = [];
  try {
    tokens.push(...resolveServeTokens(config.auth?.tokens ?? [], env));
  } catch (error) {
    throw new CliError(EXIT_CONFIG, `${runtime.loaded.file}: serve.auth.tokens: ${(error as Error).message}`);
  }
  const fromEnv = env[SERVE_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== "") tokens.push({ token: fromEnv, principal: "default" });
  const oauth = config.auth?.oauth;
  let generated: string | undefined;
  if (tokens.length === 0 && oauth === undefined) {
    generated = randomBytes(32).toString("base64url");
    tokens.push({ token: generated, principal: "default" });
  }
  const parts = [
    ...(tokens.length > 0
      ? [`bearer tokens for ${[...new Set(tokens.map((token) => token.principal))].join(", ")}`]
      : []),
    ...(oauth === undefined ? [] : [`OAuth access tokens from ${oauth.issuer}`]),
  ];
  const options: GatewayAuthOptions = {
    ...(tokens.length === 0 ? {} : { tokens }),
    ...(oauth === undefined ? {} : { oauth }),
  };
  return { options, describe: parts.join("; "), ...(generated === undefined ? {} : { generated }) };
}

/**
 * `serve.tasks`, with a Redis `store` (`redis://…`, `rediss://…`, or `env:NAME` holding one) opened: the replicas that
 * share it share their tasks. An unset variable or an address that is not Redis's exits 3 (without its password).
 */
async function openTasks(
  runtime: Runtime,
  config: ServeConfig,
  env: NodeJS.ProcessEnv,
): Promise<ServeTasksOptions | undefined> {
  const { store, ...rest } = config.tasks ?? {};
  if (config.tasks === undefined || store === undefined || store === "memory") return config.tasks as ServeTasksOptions;
  const refuse = (message: string): never => {
    throw new CliError(EXIT_CONFIG, `${runtime.loaded.file}: serve.tasks.store: ${message}`);
  };
  let connection = store;
  if (connection.startsWith("env:")) {
    const name = connection.slice("env:".length);
    connection = env[name] ?? "";
    if (connection === "")
      refuse(`it is env:${name}, and ${name} is not set: set it to redis://HOST:PORT (or rediss://)`);
  }
  const address = readRedisAddress(connection);
  if ("problem" in address) {
    refuse(
      `it is not a Redis address: ${address.problem}. Write redis://HOST:PORT (or rediss://HOST:PORT, or env:NAME)`,
    );
  }
  const { createRedisTaskStore } = await loadOptional(
    REDIS_FEATURE,
    REDIS_PACKAGES,
    () => import("../../redis/create-redis-task-store.js"),
  );
  return {
    ...rest,
    store: createRedisTaskStore<TaskRecord>({ connection, ...(rest.ttlMs === undefined ? {} : { ttlMs: rest.ttlMs }) }),
  };
}

/** The section's other options as they are, the audit file resolved against the config's folder. */
function gatewayOptions(runtime: Runtime, config: ServeConfig): Omit<GatewayOptions, "tasks"> {
  const { auth: _auth, audit, tasks: _tasks, ...rest } = config;
  return {
    ...rest,
    ...(audit === undefined ? {} : { audit: { ...audit, file: resolve(runtime.loaded.dir, audit.file) } }),
  };
}

/**
 * The session, followed by the inspector until the gateway closes it (an idle principal is released): a view of
 * the session whose `close` also stops the watch.
 */
function watchedUntilClosed(inspector: Inspector, session: AgentSession, label: string): AgentSession {
  const watch = inspector.watch(session, { label });
  const view: AgentSession = Object.create(session, {
    close: {
      value: () => {
        watch.stop();
        session.close();
      },
    },
  });
  return view;
}

function reportProblems(runtime: Runtime, output: Output) {
  for (const problem of runtime.problems)
    output.error(`toolwire serve: ${problem.area} ${problem.subject}: ${problem.message}`);
}

/**
 * Serves until SIGINT or SIGTERM, then closes, which waits a few seconds at most for the audit log. A second
 * signal stops that wait at once; what the log had not written is counted on stderr, never lost without a word.
 */
async function waitForStop(
  handle: { readonly closed: Promise<void>; close(options?: { readonly now?: boolean }): Promise<void> },
  output: Output,
): Promise<number> {
  let signals = 0;
  const stop = () => {
    signals++;
    if (signals > 1) output.error("toolwire serve: stopping now (second signal)");
    void handle.close({ now: signals > 1 });
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await handle.closed;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  return 0;
}
