// connectMcpServer: an MCP server (stdio or Streamable HTTP) as a live tool source whose tools are AgentTools.
import type { Client, Tool as McpTool } from "@modelcontextprotocol/client";
import { ToolDefinitionError } from "../../core/errors.js";
import type { AgentTool, ToolCallContext } from "../../core/types.js";
import { answerElicitation } from "./answer-elicitation.js";
import { askThroughContext } from "./ask-through-context.js";
import { bridgeMcpTool } from "./bridge-mcp-tool.js";
import { callMcpTool, type McpCallHost } from "./call-mcp-tool.js";
import { messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { listAllTools, type ToolListing } from "./list-all-tools.js";
import { checkMcpServerConfig, compileToolNameFilter, type McpServerConfig } from "./mcp-config.js";
import type { McpConnection, McpConnectOptions } from "./mcp-connection.js";
import {
  type McpConnectionEvent,
  type McpConnectionState,
  nextMcpConnectionState,
  reconnectWaitMs,
} from "./mcp-connection-state.js";
import { type McpParamHeader, scanMcpParamHeaders } from "./mcp-param-headers.js";
import { resolveMcpAuthProvider } from "./oauth/bridge-auth.js";
import {
  closeMcpClient,
  type McpClientEvents,
  type McpEndpoint,
  type OpenMcpClient,
  type OpenMcpClientOptions,
  openMcpClient,
  pidOf,
} from "./open-mcp-client.js";
import { checkAppUri, readMcpAppResource } from "./read-mcp-app-resource.js";
import { type BridgedToolCache, readToolListing, type SkippedMcpTool } from "./read-tool-listing.js";
import { nextRelistState, type RelistState } from "./relist-state.js";

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

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
 * The options with the config's own `include`, `exclude`, `timeoutMs`, `connectTimeoutMs`, `protocol`, `trust` and
 * `effects` as
 * defaults, so a config file's entry can be passed as it is. A short `timeoutMs` of the config also bounds the
 * handshake, as in the config file: a server that never answers must not hold 30 s.
 */
function withConfigOptions(config: McpServerConfig, options: McpConnectOptions): McpConnectOptions {
  if (typeof config !== "object" || config === null) return options;
  const { include, exclude, timeoutMs, connectTimeoutMs, protocol, trust, effects } = config;
  const connect =
    connectTimeoutMs ?? (timeoutMs !== undefined && timeoutMs < DEFAULT_CONNECT_TIMEOUT_MS ? timeoutMs : undefined);
  return {
    ...(include === undefined ? {} : { include }),
    ...(exclude === undefined ? {} : { exclude }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(connect === undefined ? {} : { connectTimeoutMs: connect }),
    ...(protocol === undefined ? {} : { protocol }),
    ...(trust === undefined ? {} : { trust }),
    ...(effects === undefined ? {} : { effects }),
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
  /** The calls running now, with their tools' bridged names: the server's log messages go to them. */
  const running = new Map<ToolCallContext, string>();
  let state: McpConnectionState<OpenMcpClient> = { kind: "idle" };
  let relist: RelistState = { kind: "idle" };
  /** `performance.now()` until which the last listing is fresh (its `ttlMs`); a `list_changed` ends it at once. */
  let freshUntil = 0;

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
      for (const context of running.keys()) context.log?.(message.level, message.data, message.logger);
    },
    listChanged(live) {
      freshUntil = 0;
      if (currentLive() === live) void scheduleRelist();
      else live.listChangedEarly = true;
    },
    async elicit(params, signal) {
      // A 2025-era server asks outside any request: the call is known only when one runs.
      const [only] = running.size === 1 ? running : [];
      const call = only === undefined ? {} : { toolName: only[1], toolCallId: only[0].toolCallId };
      const handler = options.onElicitation ?? (only === undefined ? undefined : askThroughContext(only[0]));
      return (await answerElicitation(handler, { serverId, ...call, params }, signal)).result;
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
    let listed: ToolListing;
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
  function applyListing(listing: ToolListing): boolean {
    freshUntil = listing.freshUntil;
    const read = readToolListing(serverId, listing.entries, filter, toolCache, bridgeTool);
    const nextTools = read.tools;
    toolCache = read.cache;
    // A tool newly left out is reported once (its reason is in `skipped` for as long as it stays out).
    const known = new Set(skipped.map((entry) => `${entry.toolName}\u0000${entry.reason}`));
    skipped = read.skipped;
    for (const entry of skipped) {
      if (known.has(`${entry.toolName}\u0000${entry.reason}`)) continue;
      report(
        new McpConnectionError(
          "mcp-tool-skipped",
          serverId,
          `MCP server ${serverId}: its tool ${entry.toolName} is left out: ${entry.reason}`,
        ),
      );
    }
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

  // 3. Bridge: each listed tool as an AgentTool whose execute is callMcpTool.
  const provenance = {
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.effects === undefined ? {} : { effects: options.effects }),
  };
  // Over HTTP a tool's parameter headers are sent with its calls, and a tool whose declarations are invalid is left out.
  const bridgeTool = (name: string, tool: McpTool) => {
    const paramHeaders = "url" in endpoint ? declaredParamHeaders(tool) : [];
    return bridgeMcpTool(serverId, name, tool, provenance, (bridged, input, context) =>
      callMcpTool(host, bridged, input, context, paramHeaders),
    );
  };

  // 4. Calls: on the current connection, or on a new one made for them.
  const host: McpCallHost = {
    serverId,
    timeoutMs,
    authorized: authProvider !== undefined,
    running,
    elicit: options.onElicitation,
    current: currentLive,
    closed: () => state.kind === "closed",
    connect: startConnecting,
    succeeded: () => move({ kind: "call-succeeded" }),
    lost(live, reason) {
      events.lost(live, reason);
      void closeMcpClient(live);
    },
    async relistFor(toolName) {
      const named = (tool: AgentTool) =>
        tool.descriptor.executor?.kind === "mcp" && tool.descriptor.executor.toolName === toolName;
      const before = tools.find(named);
      if (relist.kind === "relisting") await relist.done;
      await scheduleRelist();
      const after = tools.find(named);
      return after === before ? undefined : after;
    },
    retried: new WeakSet(),
  };

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
    async readAppResource(uri) {
      const checked = checkAppUri(serverId, uri);
      return readMcpAppResource(serverId, currentLive() ?? (await startConnecting()), checked, timeoutMs);
    },
    async refreshTools() {
      if (state.kind !== "connected") {
        const before = tools;
        await startConnecting();
        return before !== tools;
      }
      if (relist.kind === "relisting") await relist.done;
      // Within the listing's ttlMs (and with no list_changed since) the tools are as listed.
      if (performance.now() < freshUntil) return false;
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

/** The tool's `x-mcp-header` declarations; throws `ToolDefinitionError` (the tool is skipped) when they are invalid. */
function declaredParamHeaders(tool: McpTool): readonly McpParamHeader[] {
  const scan = scanMcpParamHeaders(tool.inputSchema);
  if (scan.kind === "valid") return scan.headers;
  throw new ToolDefinitionError(
    "invalid-tool-definition",
    tool.name,
    `its parameter headers are invalid (${scan.reason}), so it is left out over HTTP`,
  );
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
