// connectMcpServer: an MCP server (stdio or Streamable HTTP) as a live tool source whose tools are AgentTools.
import type { AuthProvider, Client, Tool as McpTool, OAuthClientProvider } from "@modelcontextprotocol/client";
import { ToolCallError } from "../../core/errors.js";
import type {
  AgentTool,
  JsonObject,
  JsonValue,
  LiveToolSource,
  ToolCallContext,
  ToolLogLevel,
  ToolResult,
} from "../../core/types.js";
import { type BridgedTool, bridgedResult, bridgeMcpTool, progressUpdate } from "./bridge-mcp-tool.js";
import { createCallSignalPool } from "./call-signal-pool.js";
import { classifyCallError, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { CALL_RESULT_AS_SENT, type CallResultAsSent } from "./lenient-results.js";
import { listAllTools } from "./list-all-tools.js";
import { checkMcpServerConfig, compileToolNameFilter, type McpServerConfig } from "./mcp-config.js";
import {
  type McpConnectionEvent,
  type McpConnectionState,
  nextMcpConnectionState,
  reconnectWaitMs,
} from "./mcp-connection-state.js";
import { resolveMcpAuthProvider } from "./oauth/bridge-auth.js";
import {
  closeMcpClient,
  type McpClientEvents,
  type McpEndpoint,
  type McpProtocolChoice,
  type OpenMcpClient,
  type OpenMcpClientOptions,
  openMcpClient,
  pidOf,
} from "./open-mcp-client.js";
import { type BridgedToolCache, readToolListing, type SkippedMcpTool } from "./read-tool-listing.js";
import type { ReconnectBackoff } from "./reconnect.js";
import { nextRelistState, type RelistState } from "./relist-state.js";

export type { McpProtocolChoice } from "./open-mcp-client.js";

/** How a connection behaves. Every field is optional. */
export interface McpConnectOptions {
  /** Server tool names (exact, or globs where `*` matches anything; case ignored) to bridge. Default: all. */
  readonly include?: readonly string[];
  /** Server tool names (same syntax) to leave out; wins over `include`. */
  readonly exclude?: readonly string[];
  /** Per request (each call, each re-list), reset by every progress notification. Default 60 000 ms. */
  readonly timeoutMs?: number;
  /** For starting the server and the handshake. Default 30 000 ms. */
  readonly connectTimeoutMs?: number;
  /**
   * Which protocol era to speak. `auto` (the default) asks the server with `server/discover` and speaks
   * 2026-07-28 when it offers it, else falls back to the 2025 `initialize` handshake; `2025` only does
   * the handshake; `2026-07-28` accepts nothing else and fails the connect against an older server.
   */
  readonly protocol?: McpProtocolChoice;
  /** Spacing of reconnect attempts after failures. Default: 500 ms, doubling, capped at 30 s. */
  readonly backoff?: ReconnectBackoff;
  /** The client's name and version in the handshake. Default `toolwire`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Receives a stdio server's stderr. By default it is kept (the last 4 KB) for error messages only. */
  readonly onStderr?: (text: string) => void;
  /**
   * The server's log messages (`notifications/message`) that arrive while no call runs; during calls they
   * go to the calls' `context.log` (and so to `tool_log` listeners and `serve`'s clients).
   */
  readonly onLog?: (message: {
    readonly level: ToolLogLevel;
    readonly data: JsonValue;
    readonly logger?: string;
  }) => void;
  /**
   * Authorizes with an HTTP server: `createMcpOAuthProvider` (a login), `createMcpClientCredentialsProvider`, any SDK
   * `OAuthClientProvider` or `{ token }`. Default: the one the config's `auth` describes, else none.
   */
  readonly authProvider?: AuthProvider | OAuthClientProvider;
  /** Trouble that did not fail a call: a lost connection, a re-list that failed, a stray message. */
  readonly onError?: (error: McpConnectionError) => void;
}

/**
 * A connected MCP server as a live tool source (SPEC section 4): put it in a registry's
 * `extensions` and the registry refreshes itself when the server's tool list changes.
 */
export interface McpConnection extends LiveToolSource {
  readonly serverId: string;
  /** The bridged tools, in the server's listing order; a new array after each change. */
  readonly tools: readonly AgentTool[];
  /** Listed tools that passed the filters but could not be bridged (`defineTool` refused them), with the reason. */
  readonly skipped: readonly SkippedMcpTool[];
  /** The server's name and version from the latest handshake. */
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined;
  /**
   * The protocol revision the latest connection speaks (`2026-07-28`, or a 2025 one such as `2025-11-25`),
   * and its era: `modern` (stateless, found by `server/discover`) or `legacy` (the `initialize` handshake).
   */
  readonly protocol: { readonly version: string; readonly era: "modern" | "legacy" } | undefined;
  /** Whether a connection is open now (false after the server died, until the next call reconnects). */
  readonly connected: boolean;
  /** The stdio server's process id while connected; `undefined` for HTTP or when not connected. */
  readonly pid: number | undefined;
  /** Calls the listener after `tools` changed; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Lists the tools again now; resolves to whether they changed. Connects first if needed. */
  refreshTools(): Promise<boolean>;
  /** Closes the connection (stops a stdio server). Calls after it fail with an error result. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** One event object for every call that succeeds: no allocation on the hot path. */
const CALL_SUCCEEDED: McpConnectionEvent<never> = { kind: "call-succeeded" };

/**
 * Connects to an MCP server over stdio (`command`) or Streamable HTTP (`url`), lists all pages of
 * its tools and resolves to a connection whose tools are `AgentTool`s named `<server>__<tool>`
 * (see `assignMcpToolNames`). A server that dies fails its calls in flight at once with error
 * results naming it; the next call reconnects after a backoff. Rejects with `McpConnectionError`
 * (`invalid-mcp-config`, `mcp-connect-failed`, `mcp-timeout`, `mcp-protocol-error`) when the first
 * connection cannot be made; nothing is left running then.
 */
export async function connectMcpServer(
  config: McpServerConfig,
  options: McpConnectOptions = {},
): Promise<McpConnection> {
  const merged = withConfigOptions(config, options);
  return connectMcpEndpoint(checkMcpServerConfig(config, merged), merged);
}

/**
 * The options with the config's own `include`, `exclude`, `timeoutMs`, `connectTimeoutMs` and `protocol` as
 * defaults, so a config file's entry can be passed as it is. A short `timeoutMs` of the config also bounds the
 * handshake, as in the config file: a server that never answers must not hold 30 s.
 */
function withConfigOptions(config: McpServerConfig, options: McpConnectOptions): McpConnectOptions {
  if (typeof config !== "object" || config === null) return options;
  const { include, exclude, timeoutMs, connectTimeoutMs, protocol } = config;
  const connect =
    connectTimeoutMs ?? (timeoutMs !== undefined && timeoutMs < DEFAULT_CONNECT_TIMEOUT_MS ? timeoutMs : undefined);
  return {
    ...(include === undefined ? {} : { include }),
    ...(exclude === undefined ? {} : { exclude }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(connect === undefined ? {} : { connectTimeoutMs: connect }),
    ...(protocol === undefined ? {} : { protocol }),
    ...options,
  };
}

/**
 * `connectMcpServer` past the config check, over any endpoint: a server config, or a transport the
 * caller makes for each connect (the tests' in-memory pair). Not part of the public API.
 *
 * The composition, in lifecycle order: open a connection, list its tools, bridge them, run their
 * calls (reconnecting on demand). Where the connection stands is `state` (see `McpConnectionState`),
 * whether the tools are being re-read is `relist` (see `RelistState`); both change only by their
 * machines' transitions.
 */
export async function connectMcpEndpoint(
  endpoint: McpEndpoint,
  options: McpConnectOptions = {},
): Promise<McpConnection> {
  const serverId = endpoint.id;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const filter = compileToolNameFilter(options.include, options.exclude);
  const authProvider = "url" in endpoint ? resolveMcpAuthProvider(serverId, endpoint, options.authProvider) : undefined;
  const listeners = new Set<() => void>();
  let tools: readonly AgentTool[] = [];
  let skipped: SkippedMcpTool[] = [];
  let serverInfo: McpConnection["serverInfo"];
  let protocol: McpConnection["protocol"];
  // Same server name and same definition: the same AgentTool object, so the registry keeps its wrapper.
  let toolCache: BridgedToolCache = new Map();
  /** The calls running now: the server's log messages go to them. */
  const running = new Set<ToolCallContext>();
  const callSignals = createCallSignalPool();
  let state: McpConnectionState<OpenMcpClient> = { kind: "idle" };
  let relist: RelistState = { kind: "idle" };

  const move = (event: McpConnectionEvent<OpenMcpClient>) => {
    state = nextMcpConnectionState(state, event);
  };
  const currentLive = () => (state.kind === "connected" ? state.live : undefined);
  const closedError = () => new McpConnectionError("mcp-closed", serverId, `MCP server ${serverId} is closed`);

  const report = (error: McpConnectionError) => {
    try {
      options.onError?.(error);
    } catch {
      // a failing error listener must not break the connection
    }
  };

  // 1. Open: a connection, and what the bridge does with what it hears.
  const events: McpClientEvents = {
    lost(live, reason) {
      if (live.lost !== undefined) return;
      live.lost = reason;
      if (currentLive() !== live) return;
      move({ kind: "lost", live, reason, at: performance.now() });
      if (!live.closing) report(reason);
    },
    error: report,
    log(message) {
      if (running.size === 0) {
        try {
          options.onLog?.(message);
        } catch {
          // a failing log listener must not break the connection
        }
      }
      for (const context of running) context.log?.(message.level, message.data, message.logger);
    },
    listChanged(live) {
      if (currentLive() === live) void scheduleRelist();
      else live.listChangedEarly = true;
    },
    callsInFlight: () => running.size > 0,
    closed: () => state.kind === "closed",
  };
  const openOptions: OpenMcpClientOptions = {
    protocol: options.protocol ?? "auto",
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    clientInfo: options.clientInfo ?? { name: "toolwire", version: "0.1.0" },
    onStderr: options.onStderr,
    authProvider,
    events,
  };

  /** The connect under way, or a new one: from idle the first, from lost a reconnect after the backoff delay. */
  function startConnecting(): Promise<OpenMcpClient> {
    if (state.kind === "connecting" || state.kind === "reconnecting") return state.attempt;
    if (state.kind === "connected") return Promise.resolve(state.live);
    if (state.kind === "closed") return Promise.reject(closedError());
    const waitMs = reconnectWaitMs(state, performance.now(), options.backoff);
    // Begun from a microtask, so the state holds the attempt before anything in it reads the state.
    const attempt = Promise.resolve().then(() => connect(waitMs));
    // Its failure is for the callers waiting on it; one that stopped waiting (aborted) leaves none.
    attempt.catch(() => undefined);
    move({ kind: "connect", attempt });
    return attempt;
  }

  /** Waits `waitMs`, opens a connection and lists its tools; then it is the current connection. */
  async function connect(waitMs: number): Promise<OpenMcpClient> {
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    let live: OpenMcpClient | undefined;
    let listed: unknown[];
    try {
      if (state.kind === "closed") throw closedError();
      live = await openMcpClient(endpoint, openOptions).catch((error: unknown) => {
        // A kept-alive socket of the lost connection, reused for the new one's first request, was closed by the
        // server meanwhile: that says nothing of the server now, so the open is tried once more on a fresh socket.
        if (!closedByPeer(error)) throw error;
        return openMcpClient(endpoint, openOptions);
      });
      listed = await listAllTools(serverId, live, timeoutMs);
      move({ kind: "connected", live });
      if (currentLive() !== live) throw closedError(); // closed while connecting
    } catch (error) {
      // The failure counts from now, not from when the connection finished closing.
      move({ kind: "connect-failed", reason: connectFailure(serverId, error), at: performance.now() });
      if (live !== undefined) await closeMcpClient(live);
      throw error;
    }
    serverInfo = live.client.getServerVersion();
    protocol = protocolOf(live.client);
    applyListing(listed);
    if (live.listChangedEarly) void scheduleRelist();
    return live;
  }

  // 2. List: the tools from a listing, and listing again when the server says they changed.

  /** Builds the tools from a listing; returns whether they changed, and tells the listeners if so. */
  function applyListing(listing: readonly unknown[]): boolean {
    const read = readToolListing(serverId, listing, filter, toolCache, bridgeTool);
    const nextTools = read.tools;
    toolCache = read.cache;
    skipped = read.skipped;
    const changed = nextTools.length !== tools.length || nextTools.some((tool, index) => tools[index] !== tool);
    if (!changed) return false;
    tools = nextTools;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        report(
          new McpConnectionError(
            "mcp-listener-failed",
            serverId,
            `A tools listener of MCP server ${serverId} threw: ${messageOf(error)}`,
            { cause: error },
          ),
        );
      }
    }
    return true;
  }

  /** Starts a relist, or asks the running one for one more pass; resolves to whether the tools changed. */
  function scheduleRelist(): Promise<boolean> {
    if (relist.kind === "relisting") {
      const { done } = relist;
      relist = nextRelistState(relist, { kind: "changed" });
      return done;
    }
    // Begun from a microtask, so the state holds `done` before the first pass reads the state.
    const done = Promise.resolve().then(relistPasses);
    relist = nextRelistState(relist, { kind: "started", done });
    return done;
  }

  /** Lists the tools on the current connection, once more each time a change arrived during a pass. */
  async function relistPasses(): Promise<boolean> {
    let changed = false;
    for (;;) {
      const live = currentLive();
      if (live === undefined) {
        relist = nextRelistState(relist, { kind: "stopped" });
        return changed;
      }
      try {
        changed = applyListing(await listAllTools(serverId, live, timeoutMs)) || changed;
      } catch (error) {
        report(
          error instanceof McpConnectionError
            ? error
            : new McpConnectionError("mcp-protocol-error", serverId, messageOf(error)),
        );
      }
      relist = nextRelistState(relist, { kind: "pass-finished" });
      if (relist.kind === "idle") return changed;
    }
  }

  // 3. Bridge: each listed tool as an AgentTool whose execute is callTool.
  const bridgeTool = (name: string, tool: McpTool) => bridgeMcpTool(serverId, name, tool, callTool);

  // 4. Calls: on the current connection, or on a new one made for them.

  async function callTool(bridged: BridgedTool, input: JsonObject, context: ToolCallContext): Promise<ToolResult> {
    const live = state.kind === "connected" ? state.live : await acquire(bridged.name, context.signal);
    // The context's own signal, or, when it reports aborts through onAbort, a reused one (no AbortController per call).
    const call = callSignals.take(context);
    running.add(context);
    // With telemetry: a client span for the request, and its trace context in `_meta` for the server to continue.
    const span = context.span?.startChild(`tools/call ${bridged.toolName}`, {
      kind: "client",
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": bridged.toolName,
        "toolwire.mcp.server": serverId,
      },
    });
    const params = { name: bridged.toolName, arguments: input as Record<string, unknown> };
    let result: CallResultAsSent;
    try {
      result = await live.client.request(
        {
          method: "tools/call",
          params: span === undefined ? params : { ...params, _meta: { ...span.traceContext() } },
        },
        CALL_RESULT_AS_SENT,
        {
          // The SDK removes its abort listener when the request settles, so a signal reused for many calls
          // gathers none. No linked signal, no WeakSet of signals per call.
          signal: call.signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => context.onUpdate(progressUpdate(progress)),
        },
      );
    } catch (error) {
      const failure = callError(live, bridged, error, call.signal);
      span?.end(failure.code);
      throw failure;
    } finally {
      call.release();
      running.delete(context);
    }
    span?.end(result.isError === true ? "tool-error" : undefined);
    move(CALL_SUCCEEDED);
    return bridgedResult(bridged, result);
  }

  function callError(live: OpenMcpClient, bridged: BridgedTool, error: unknown, signal: AbortSignal): ToolCallError {
    const failure = classifyCallError(
      {
        serverId,
        name: bridged.name,
        toolName: bridged.toolName,
        timeoutMs,
        closed: state.kind === "closed",
        lost: live.lost,
        aborted: signal.aborted,
        authorized: authProvider !== undefined,
      },
      error,
    );
    if (failure.lost !== undefined) {
      events.lost(live, failure.lost);
      void closeMcpClient(live);
    }
    return failure.error;
  }

  /** The current connection, or a new one after the backoff delay. */
  async function acquire(name: string, signal: AbortSignal): Promise<OpenMcpClient> {
    if (state.kind === "closed") {
      throw new ToolCallError(
        "execution-failed",
        name,
        `MCP server ${serverId} is closed: its connection was shut down`,
      );
    }
    if (state.kind === "connected") return state.live;
    try {
      return await raceAbort(startConnecting(), signal);
    } catch (error) {
      if (signal.aborted)
        throw new ToolCallError(
          "aborted",
          name,
          `The call to ${name} was aborted while reconnecting to MCP server ${serverId}`,
        );
      const reason = error instanceof McpConnectionError ? error.message : messageOf(error);
      // Closed meanwhile (the await above may have seen close()): no later call will try again.
      const closedMeanwhile = (state as { readonly kind: string }).kind === "closed";
      const next = closedMeanwhile ? "the connection is closed" : "a later call will try again";
      throw new ToolCallError(
        "execution-failed",
        name,
        `${reason}. Reconnecting to MCP server ${serverId} failed; ${next}.`,
        { cause: error },
      );
    }
  }

  // The first connection: its failure is the caller's error, with nothing left running.
  await startConnecting();

  return {
    serverId,
    get tools() {
      return tools;
    },
    get skipped() {
      return skipped;
    },
    get serverInfo() {
      return serverInfo;
    },
    get protocol() {
      return protocol;
    },
    get connected() {
      return state.kind === "connected";
    },
    get pid() {
      const live = currentLive();
      return live === undefined ? undefined : pidOf(live);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async refreshTools() {
      if (state.kind !== "connected") {
        const before = tools;
        await startConnecting();
        return before !== tools;
      }
      if (relist.kind === "relisting") await relist.done;
      return scheduleRelist();
    },
    async close() {
      const before = state;
      move({ kind: "close" });
      if (before.kind === "connected") await closeMcpClient(before.live);
      if (before.kind === "connecting" || before.kind === "reconnecting") await before.attempt.catch(() => undefined);
    },
  };
}

function protocolOf(client: Client): McpConnection["protocol"] {
  const version = client.getNegotiatedProtocolVersion();
  const era = client.getProtocolEra();
  return version === undefined || era === undefined ? undefined : { version, era };
}

/** Whether a failure comes from a pooled HTTP socket the other side had closed (undici's `UND_ERR_SOCKET`). */
function closedByPeer(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; depth < 8 && typeof cause === "object" && cause !== null; depth++) {
    if ((cause as { code?: unknown }).code === "UND_ERR_SOCKET") return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** A failed connect as the lost state's reason. */
function connectFailure(serverId: string, error: unknown): McpConnectionError {
  if (error instanceof McpConnectionError) return error;
  return new McpConnectionError("mcp-connect-failed", serverId, messageOf(error), { cause: error });
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
