// connectMcpServer: an MCP server (stdio or Streamable HTTP) as a live tool source whose tools are AgentTools.
import {
  type AuthProvider,
  Client,
  type McpSubscription,
  type Tool as McpTool,
  type OAuthClientProvider,
  type Progress,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { ToolCallError } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { defineTool } from "../core/register/define-tool.js";
import type {
  AgentTool,
  JsonObject,
  JsonValue,
  LiveToolSource,
  ToolCallContext,
  ToolLogLevel,
  ToolResult,
} from "../core/types.js";
import { structuredContentCheck } from "./check-structured-content.js";
import { ChildProcessTransport } from "./child-process-transport.js";
import { classifyCallError, isTimeout, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { CALL_RESULT_AS_SENT, type CallResultAsSent, TOOL_LIST_PAGE } from "./lenient-results.js";
import { mapCallToolResult } from "./map-result.js";
import { checkMcpServerConfig, compileToolNameFilter, type McpServerConfig, serverSandbox } from "./mcp-config.js";
import { AuthorizingHttpTransport } from "./oauth/authorizing-http-transport.js";
import {
  authorizationFailure,
  MAX_AUTHORIZATIONS_PER_CONNECT,
  pendingAuthorizationOf,
  resolveMcpAuthProvider,
} from "./oauth/bridge-auth.js";
import { type BridgedToolCache, readToolListing, type SkippedMcpTool } from "./read-tool-listing.js";
import { type ReconnectBackoff, reconnectDelayMs } from "./reconnect.js";

/** Which MCP protocol era a connection speaks: negotiated, 2025 only, or 2026-07-28 only. */
export type McpProtocolChoice = "auto" | "2025" | "2026-07-28";

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
const MAX_LIST_PAGES = 1000;
/** How long the connect-time `server/discover` probe waits before a stdio server counts as a 2025-era one. */
const PROBE_TIMEOUT_MS = 3_000;
/** How long the reachability check of an HTTP server waits for any answer. */
const REACHABLE_TIMEOUT_MS = 1_000;

interface Live {
  readonly client: Client;
  readonly transport: Transport;
  /** Set when the connection was lost; says why. */
  lost: McpConnectionError | undefined;
  closing: boolean;
  /** A `tools/list_changed` arrived before this connection became current. */
  listChangedEarly: boolean;
  /** On a 2026-07-28 connection: the `subscriptions/listen` stream that brings `tools/list_changed`. */
  subscription: McpSubscription | undefined;
  /** A reachability check of the HTTP server is under way. */
  checking: boolean;
}

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
  const checked = checkMcpServerConfig(config, options);
  const serverId = checked.id;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const protocolChoice = options.protocol ?? "auto";
  const filter = compileToolNameFilter(options.include, options.exclude);
  const authProvider = "url" in checked ? resolveMcpAuthProvider(serverId, checked, options.authProvider) : undefined;
  const listeners = new Set<() => void>();
  let tools: readonly AgentTool[] = [];
  let skipped: SkippedMcpTool[] = [];
  let serverInfo: McpConnection["serverInfo"];
  let protocol: McpConnection["protocol"];
  let current: Live | undefined;
  let connecting: Promise<Live> | undefined;
  let failures = 0;
  let lastFailureAt = 0;
  let closed = false;
  let relisting: Promise<boolean> | undefined;
  let relistAgain = false;
  /** The calls running now: the server's log messages go to them. */
  const running = new Set<ToolCallContext>();
  // Same server name and same definition: the same AgentTool object, so the registry keeps its wrapper.
  let toolCache: BridgedToolCache = new Map();

  const report = (error: McpConnectionError) => {
    try {
      options.onError?.(error);
    } catch {
      // a failing error listener must not break the connection
    }
  };

  const recordFailure = () => {
    failures++;
    lastFailureAt = performance.now();
  };

  const onLost = (live: Live, reason: McpConnectionError) => {
    if (live.lost !== undefined) return;
    live.lost = reason;
    if (current === live) {
      current = undefined;
      recordFailure();
      if (!live.closing) report(reason);
    }
  };

  /**
   * Opens a connection. Over HTTP, a request that failed in fetch itself (for example on a pooled
   * keep-alive socket that a restarted server closed) is retried once on a new connection, and a
   * server that needs a login gets it (see ./oauth) before connecting starts again.
   */
  async function open(): Promise<Live> {
    for (let authorizations = 0; ; authorizations++) {
      try {
        return await openRetryingFetch();
      } catch (error) {
        // A login is not bounded by the connect timeout: it waits for the user, then connecting starts again.
        const pending = pendingAuthorizationOf(error);
        if (pending === undefined || authorizations >= MAX_AUTHORIZATIONS_PER_CONNECT || closed) throw error;
        try {
          await pending.complete();
        } catch (failure) {
          throw authorizationFailure(serverId, failure, true) ?? failure;
        }
      }
    }
  }

  /**
   * Over HTTP, a request that failed in fetch itself (a pooled socket a restarted server closed) is
   * retried once. Over stdio, a server that exited during the era probe (some exit on any request
   * before `initialize`) is started once more and spoken to with the 2025 handshake alone.
   */
  async function openRetryingFetch(): Promise<Live> {
    try {
      return await openOnce(protocolChoice);
    } catch (error) {
      if ("command" in checked) {
        if (
          protocolChoice !== "auto" ||
          !(error instanceof McpConnectionError) ||
          error.code !== "mcp-connect-failed"
        ) {
          throw error;
        }
        return openOnce("2025");
      }
      if (!isFetchFailure(error)) throw error;
      return openOnce(protocolChoice);
    }
  }

  async function openOnce(protocol: McpProtocolChoice): Promise<Live> {
    const transport: Transport =
      "command" in checked
        ? new ChildProcessTransport({
            serverId,
            command: checked.command,
            args: checked.args,
            env: checked.env,
            cwd: checked.cwd,
            sandbox: serverSandbox(checked),
            onStderr: options.onStderr,
          })
        : new AuthorizingHttpTransport(new URL(String(checked.url)), {
            requestInit: { headers: { ...checked.headers } },
            ...(authProvider === undefined ? {} : { authProvider }),
          });
    const client = new Client(options.clientInfo ?? { name: "toolwire", version: "0.1.0" }, {
      capabilities: {},
      // 2026-07-28 when the server offers it (server/discover), else the 2025 initialize handshake.
      // Over stdio a silent probe means a 2025-era server, so it waits briefly; over HTTP silence is an outage.
      versionNegotiation: {
        mode: protocol === "2025" ? "legacy" : protocol === "auto" ? "auto" : { pin: protocol },
        probe: { timeoutMs: "command" in checked ? Math.min(PROBE_TIMEOUT_MS, connectTimeoutMs) : connectTimeoutMs },
      },
    });
    const live: Live = {
      client,
      transport,
      lost: undefined,
      closing: false,
      listChangedEarly: false,
      subscription: undefined,
      checking: false,
    };
    client.onclose = () => onLost(live, closeReasonOf(live));
    client.onerror = (error) => {
      // The SDK handles a request's last progress notification after its response; that one is no fault.
      if (error.message.startsWith("Received a progress notification for an unknown token")) return;
      if (live.lost === undefined && !live.closing) {
        report(
          error instanceof McpConnectionError
            ? error
            : new McpConnectionError("mcp-protocol-error", serverId, `MCP server ${serverId}: ${error.message}`, {
                cause: error,
              }),
        );
        // Over HTTP a dropped response stream is retried by the SDK for as long as the call's timeout:
        // if the server is gone, the calls in flight must fail now, not in a minute.
        if ("url" in checked && running.size > 0) void checkReachable(live, String(checked.url));
      }
    };
    client.setNotificationHandler("notifications/message", (notification) => {
      const { level, data, logger } = notification.params;
      const message = { level, data: data as JsonValue, ...(typeof logger === "string" ? { logger } : {}) };
      if (running.size === 0) {
        try {
          options.onLog?.(message);
        } catch {
          // a failing log listener must not break the connection
        }
      }
      for (const context of running) context.log?.(level, message.data, message.logger);
    });
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      if (current === live) scheduleRelist();
      else live.listChangedEarly = true;
    });
    try {
      await withinDeadline(client.connect(transport, { timeout: connectTimeoutMs }), connectTimeoutMs);
    } catch (error) {
      const failure = connectError(live, error);
      await closeLive(live);
      throw failure;
    }
    // A 2026-07-28 server sends change notifications only on a listen stream; a 2025 one sends them unasked.
    if (client.getProtocolEra() === "modern" && client.getServerCapabilities()?.tools?.listChanged === true) {
      live.subscription = await client
        .listen({ toolsListChanged: true }, { timeout: connectTimeoutMs })
        .catch((error: unknown) => {
          report(
            new McpConnectionError(
              "mcp-protocol-error",
              serverId,
              `MCP server ${serverId} did not open a stream for tool list changes: ${messageOf(error)}`,
              { cause: error },
            ),
          );
          return undefined;
        });
    }
    return live;
  }

  /**
   * After a transport error with calls in flight: one quick request to the server's URL. No answer at
   * all (refused, reset, nothing within a second) means it is gone: the connection is dropped, and its
   * calls fail at once naming the server. Any HTTP answer means it is up, and the SDK goes on retrying.
   */
  async function checkReachable(live: Live, url: string): Promise<void> {
    if (live.checking) return;
    live.checking = true;
    try {
      await fetch(url, { method: "OPTIONS", signal: AbortSignal.timeout(REACHABLE_TIMEOUT_MS) });
    } catch (error) {
      if (live.lost !== undefined || live.closing) return;
      onLost(
        live,
        new McpConnectionError(
          "mcp-server-exited",
          serverId,
          `MCP server ${serverId} could not be reached (${messageOf(error)})`,
          {
            cause: error,
          },
        ),
      );
      void closeLive(live);
    } finally {
      live.checking = false;
    }
  }

  function closeReasonOf(live: Live): McpConnectionError {
    if (live.transport instanceof ChildProcessTransport && live.transport.closeReason !== undefined) {
      return live.transport.closeReason;
    }
    return new McpConnectionError("mcp-server-exited", serverId, `MCP server ${serverId} closed the connection`);
  }

  function connectError(live: Live, error: unknown): McpConnectionError {
    if (error instanceof McpConnectionError) return error;
    const unauthorized = authorizationFailure(serverId, error, authProvider !== undefined);
    if (unauthorized !== undefined) return unauthorized;
    if (isTimeout(error)) {
      return new McpConnectionError(
        "mcp-timeout",
        serverId,
        `MCP server ${serverId} did not complete the handshake within ${connectTimeoutMs} ms`,
        { cause: error },
      );
    }
    // A child process knows why it closed; over HTTP the thrown error says more than "closed", and so does
    // the SDK's error when it closed the process itself (a refused era, for example).
    const lost =
      live.transport instanceof ChildProcessTransport ? (live.transport.closeReason ?? live.lost) : undefined;
    if (lost !== undefined && lost.code !== "mcp-closed") {
      const code = lost.code === "mcp-server-exited" ? "mcp-connect-failed" : lost.code;
      return new McpConnectionError(code, serverId, `${lost.message} before the handshake completed`, {
        cause: lost,
      });
    }
    return new McpConnectionError(
      "mcp-connect-failed",
      serverId,
      `MCP server ${serverId} could not be connected: ${messageOf(error)}`,
      { cause: error },
    );
  }

  async function closeLive(live: Live) {
    live.closing = true;
    await live.subscription?.close().catch(() => undefined);
    const { transport } = live;
    if (
      transport instanceof StreamableHTTPClientTransport &&
      transport.sessionId !== undefined &&
      live.lost === undefined
    ) {
      // Ends the server's MCP session (an HTTP DELETE); a server that does not answer soon is left to time it out.
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
    }
    try {
      await live.client.close();
    } catch {
      // already closed
    }
    if (live.transport instanceof ChildProcessTransport) await live.transport.close();
  }

  async function listAll(live: Live): Promise<unknown[]> {
    const listed: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      let result: Awaited<ReturnType<typeof requestPage>>;
      try {
        result = await requestPage(live, cursor);
      } catch (error) {
        throw listError(live, error);
      }
      listed.push(...(result.tools ?? []));
      cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
      if (cursor === undefined) return listed;
      if (cursors.has(cursor)) break;
      cursors.add(cursor);
    }
    throw new McpConnectionError(
      "mcp-protocol-error",
      serverId,
      `MCP server ${serverId} kept paging tools/list (a repeated cursor or more than ${MAX_LIST_PAGES} pages)`,
    );
  }

  function requestPage(live: Live, cursor: string | undefined) {
    // One page per request: the SDK's own aggregation would hide a cursor that never ends.
    return live.client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      TOOL_LIST_PAGE,
      { timeout: timeoutMs, resetTimeoutOnProgress: true },
    );
  }

  function listError(live: Live, error: unknown): McpConnectionError {
    if (live.lost !== undefined) return live.lost;
    if (isTimeout(error)) {
      return new McpConnectionError(
        "mcp-timeout",
        serverId,
        `MCP server ${serverId} did not list its tools within ${timeoutMs} ms`,
        { cause: error },
      );
    }
    return new McpConnectionError(
      "mcp-protocol-error",
      serverId,
      `MCP server ${serverId} could not list its tools: ${messageOf(error)}`,
      { cause: error },
    );
  }

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
            {
              cause: error,
            },
          ),
        );
      }
    }
    return true;
  }

  function bridgeTool(name: string, tool: McpTool): AgentTool {
    const toolName = tool.name;
    const outputSchema = isRecord(tool.outputSchema) ? (tool.outputSchema as JsonObject) : undefined;
    const checkStructured = outputSchema === undefined ? undefined : structuredContentCheck(outputSchema);
    return defineTool({
      name,
      title: tool.title ?? tool.annotations?.title,
      description: tool.description ?? tool.title ?? "",
      inputSchema: tool.inputSchema as JsonObject,
      outputSchema: tool.outputSchema as JsonObject | undefined,
      annotations: tool.annotations === undefined ? undefined : (plainCopy(tool.annotations) as JsonObject),
      icons: Array.isArray(tool.icons) ? (plainCopy(tool.icons.filter(isRecord)) as JsonObject[]) : undefined,
      _meta: isRecord(tool._meta) ? (plainCopy(tool._meta) as JsonObject) : undefined,
      owner: { kind: "mcp", serverId },
      executor: { kind: "mcp", serverId, toolName },
      execute: (input: JsonObject, context: ToolCallContext) =>
        callTool(name, toolName, input, context, checkStructured),
    });
  }

  async function callTool(
    name: string,
    toolName: string,
    input: JsonObject,
    context: ToolCallContext,
    checkStructured: ((structured: unknown) => string | undefined) | undefined,
  ): Promise<ToolResult> {
    const live = current ?? (await acquire(name, context.signal));
    const { signal, release } = requestSignal(context.signal);
    running.add(context);
    let result: CallResultAsSent;
    try {
      result = await live.client.request(
        { method: "tools/call", params: { name: toolName, arguments: input as Record<string, unknown> } },
        CALL_RESULT_AS_SENT,
        {
          signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => context.onUpdate(progressUpdate(progress)),
        },
      );
    } catch (error) {
      throw callError(live, name, toolName, error, context.signal);
    } finally {
      release?.();
      running.delete(context);
    }
    failures = 0;
    const mapped = mapCallToolResult(result, { serverId, toolName });
    const violation = mapped.isError === true ? undefined : checkStructured?.(result.structuredContent);
    if (violation === undefined) return mapped;
    return {
      content: [
        {
          type: "text",
          text: `MCP server ${serverId} answered the call to ${toolName}, but ${violation}. This is a fault of the server, not of your call.`,
        },
      ],
      isError: true,
      ...(mapped.details === undefined ? {} : { details: mapped.details }),
    };
  }

  function callError(live: Live, name: string, toolName: string, error: unknown, signal: AbortSignal): ToolCallError {
    const failure = classifyCallError(
      {
        serverId,
        name,
        toolName,
        timeoutMs,
        closed,
        lost: live.lost,
        aborted: signal.aborted,
        authorized: authProvider !== undefined,
      },
      error,
    );
    if (failure.lost !== undefined) {
      onLost(live, failure.lost);
      void closeLive(live);
    }
    return failure.error;
  }

  /** The current connection, or a new one after the backoff delay. */
  async function acquire(name: string, signal: AbortSignal): Promise<Live> {
    if (closed) {
      throw new ToolCallError(
        "execution-failed",
        name,
        `MCP server ${serverId} is closed: its connection was shut down`,
      );
    }
    if (current !== undefined) return current;
    connecting ??= reconnect().finally(() => {
      connecting = undefined;
    });
    try {
      return await raceAbort(connecting, signal);
    } catch (error) {
      if (signal.aborted)
        throw new ToolCallError(
          "aborted",
          name,
          `The call to ${name} was aborted while reconnecting to MCP server ${serverId}`,
        );
      const reason = error instanceof McpConnectionError ? error.message : messageOf(error);
      throw new ToolCallError(
        "execution-failed",
        name,
        `${reason}. Reconnecting to MCP server ${serverId} failed; a later call will try again.`,
        { cause: error },
      );
    }
  }

  async function reconnect(): Promise<Live> {
    const wait = lastFailureAt + reconnectDelayMs(failures, options.backoff) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (closed) throw new McpConnectionError("mcp-closed", serverId, `MCP server ${serverId} is closed`);
    let live: Live;
    try {
      live = await open();
    } catch (error) {
      recordFailure();
      throw error;
    }
    try {
      const listed = await listAll(live);
      if (closed) throw new McpConnectionError("mcp-closed", serverId, `MCP server ${serverId} is closed`);
      current = live;
      serverInfo = live.client.getServerVersion();
      protocol = protocolOf(live.client);
      applyListing(listed);
      if (live.listChangedEarly) scheduleRelist();
      return live;
    } catch (error) {
      recordFailure();
      await closeLive(live);
      throw error;
    }
  }

  function scheduleRelist(): Promise<boolean> {
    if (relisting !== undefined) {
      relistAgain = true;
      return relisting;
    }
    relisting = (async () => {
      let changed = false;
      do {
        relistAgain = false;
        const live = current;
        if (live === undefined || closed) break;
        try {
          changed = applyListing(await listAll(live)) || changed;
        } catch (error) {
          report(
            error instanceof McpConnectionError
              ? error
              : new McpConnectionError("mcp-protocol-error", serverId, messageOf(error)),
          );
        }
      } while (relistAgain && !closed);
      return changed;
    })().finally(() => {
      relisting = undefined;
    });
    return relisting;
  }

  // The first connection: its failure is the caller's error, with nothing left running.
  const first = await open();
  let listed: unknown[];
  try {
    listed = await listAll(first);
  } catch (error) {
    await closeLive(first);
    throw error;
  }
  current = first;
  serverInfo = first.client.getServerVersion();
  protocol = protocolOf(first.client);
  applyListing(listed);
  if (first.listChangedEarly) void scheduleRelist();

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
      return current !== undefined;
    },
    get pid() {
      const transport = current?.transport;
      return transport instanceof ChildProcessTransport ? transport.pid : undefined;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async refreshTools() {
      if (current === undefined) {
        const before = tools;
        connecting ??= reconnect().finally(() => {
          connecting = undefined;
        });
        await connecting;
        return before !== tools;
      }
      if (relisting !== undefined) await relisting;
      return scheduleRelist();
    },
    async close() {
      if (closed) return;
      closed = true;
      const live = current;
      current = undefined;
      if (live !== undefined) await closeLive(live);
      await connecting?.catch(() => undefined);
    },
  };
}

/** A listed tool's extra, as plain JSON (what the SDK parsed may carry more than JSON). */
function plainCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function protocolOf(client: Client): McpConnection["protocol"] {
  const version = client.getNegotiatedProtocolVersion();
  const era = client.getProtocolEra();
  return version === undefined || era === undefined ? undefined : { version, era };
}

// Signals already handed to the SDK, which adds an abort listener per request and never removes it.
const signalsInUse = new WeakSet<AbortSignal>();

/**
 * The signal for one SDK request. A call's own signal (the session makes one per call) is passed as
 * it is; a signal seen before (a caller reusing one) gets a fresh signal linked to it, so listeners
 * do not pile up on it.
 */
function requestSignal(signal: AbortSignal): { signal: AbortSignal; release?: () => void } {
  if (!signalsInUse.has(signal)) {
    signalsInUse.add(signal);
    return { signal };
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, release: () => signal.removeEventListener("abort", onAbort) };
}

function progressUpdate(progress: Progress): ToolResult {
  const total = progress.total === undefined ? "" : `/${progress.total}`;
  const message = progress.message === undefined ? "" : `: ${progress.message}`;
  return {
    content: [{ type: "text", text: `progress ${progress.progress}${total}${message}` }],
    details: { progress },
  };
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

function isFetchFailure(error: unknown): boolean {
  const cause = error instanceof McpConnectionError ? error.cause : error;
  return cause instanceof TypeError && cause.message === "fetch failed";
}

/**
 * The connect, bounded as a whole: the era probe and the handshake together take at most `ms`
 * (each alone would have its own timeout). Rejects with the SDK's timeout error past it.
 */
function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new SdkError(SdkErrorCode.RequestTimeout, `connect took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
