// One connection to an MCP server: its transport (stdio, Streamable HTTP, or one the caller makes), the handshake, and
// closing it.
import {
  type AuthProvider,
  Client,
  type McpSubscription,
  type OAuthClientProvider,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import type { JsonObject, JsonValue, ToolLogLevel } from "../../core/types.js";
import { ChildProcessTransport } from "./child-process-transport.js";
import { isTimeout, messageOf } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from "./mcp-app.js";
import { type McpServerConfig, serverSandbox } from "./mcp-config.js";
import type { McpProtocolChoice } from "./mcp-config-types.js";
import { AuthorizingHttpTransport } from "./oauth/authorizing-http-transport.js";
import { authorizationFailure, MAX_AUTHORIZATIONS_PER_CONNECT, pendingAuthorizationOf } from "./oauth/bridge-auth.js";
import { passTaskResults, TASKS_EXTENSION } from "./task-results.js";

/**
 * Where the bridge connects: a checked server config, or a transport the caller makes anew for each
 * connect (the tests' in-memory pair), spoken to like an HTTP server that cannot be probed.
 */
export type McpEndpoint = McpServerConfig | { readonly id: string; readonly transport: () => Transport };

/** One open connection: its client and transport, and what became of it. */
export interface OpenMcpClient {
  readonly client: Client;
  readonly transport: Transport;
  /** Set when the connection was lost; says why. */
  lost: McpConnectionError | undefined;
  /** `closeMcpClient` was called: its closing is no news to report. */
  closing: boolean;
  /** Set by the bridge: a `tools/list_changed` arrived before this connection became current. */
  listChangedEarly: boolean;
  /** On a 2026-07-28 connection: the `subscriptions/listen` stream that brings `tools/list_changed`. */
  subscription: McpSubscription | undefined;
  /** A reachability check of the HTTP server is under way. */
  checking: boolean;
}

/** A server's log message (`notifications/message`). */
interface McpLogMessage {
  readonly level: ToolLogLevel;
  readonly data: JsonValue;
  readonly logger?: string;
}

/** What the bridge hears from an open connection, and the two things the connection asks it. */
export interface McpClientEvents {
  /** The connection closed or broke (once per connection). */
  lost(live: OpenMcpClient, reason: McpConnectionError): void;
  /** Trouble that did not end the connection. */
  error(error: McpConnectionError): void;
  log(message: McpLogMessage): void;
  listChanged(live: OpenMcpClient): void;
  /** A 2025-era server's `elicitation/create` request: resolves to the answer it gets (never rejects). */
  elicit(params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** Whether calls are in flight (then a broken HTTP stream is checked at once, not retried for a minute). */
  callsInFlight(): boolean;
  /** Whether the bridge was closed (then no login is waited for). */
  closed(): boolean;
}

export interface OpenMcpClientOptions {
  readonly protocol: McpProtocolChoice;
  readonly connectTimeoutMs: number;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly onStderr?: (text: string) => void;
  readonly authProvider?: AuthProvider | OAuthClientProvider;
  readonly events: McpClientEvents;
}

/** How long the connect-time `server/discover` probe waits before a stdio server counts as a 2025-era one. */
const PROBE_TIMEOUT_MS = 3_000;
/** How long the reachability check of an HTTP server waits for any answer. */
const REACHABLE_TIMEOUT_MS = 1_000;

/**
 * Opens a connection and completes the handshake. Over HTTP, a request that failed in fetch itself
 * (for example on a pooled keep-alive socket that a restarted server closed) is retried once on a new
 * connection, and a server that needs a login gets it (see ./oauth) before connecting starts again.
 * Rejects with `McpConnectionError`; nothing is left running then.
 */
export async function openMcpClient(endpoint: McpEndpoint, options: OpenMcpClientOptions): Promise<OpenMcpClient> {
  for (let authorizations = 0; ; authorizations++) {
    try {
      return await openRetrying(endpoint, options);
    } catch (error) {
      // A login is not bounded by the connect timeout: it waits for the user, then connecting starts again.
      const pending = pendingAuthorizationOf(error);
      if (pending === undefined || authorizations >= MAX_AUTHORIZATIONS_PER_CONNECT || options.events.closed()) {
        throw error;
      }
      try {
        await pending.complete();
      } catch (failure) {
        throw authorizationFailure(endpoint.id, failure, true) ?? failure;
      }
    }
  }
}

/** Closes a connection: its listen stream, its HTTP session (briefly), its client, and a stdio server's process. */
export async function closeMcpClient(live: OpenMcpClient): Promise<void> {
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

/** The stdio server's process id; `undefined` over HTTP. */
export function pidOf(live: OpenMcpClient): number | undefined {
  return live.transport instanceof ChildProcessTransport ? live.transport.pid : undefined;
}

/**
 * Over HTTP, a request that failed in fetch itself (a pooled socket a restarted server closed) is
 * retried once. Over stdio, a server that exited during the era probe (some exit on any request
 * before `initialize`) is started once more and spoken to with the 2025 handshake alone.
 */
async function openRetrying(endpoint: McpEndpoint, options: OpenMcpClientOptions): Promise<OpenMcpClient> {
  try {
    return await openOnce(endpoint, options, options.protocol);
  } catch (error) {
    if ("command" in endpoint) {
      if (
        options.protocol !== "auto" ||
        !(error instanceof McpConnectionError) ||
        error.code !== "mcp-connect-failed"
      ) {
        throw error;
      }
      return openOnce(endpoint, options, "2025");
    }
    if (!("url" in endpoint) || !isFetchFailure(error)) throw error;
    return openOnce(endpoint, options, options.protocol);
  }
}

async function openOnce(
  endpoint: McpEndpoint,
  options: OpenMcpClientOptions,
  protocol: McpProtocolChoice,
): Promise<OpenMcpClient> {
  const serverId = endpoint.id;
  const { connectTimeoutMs, events } = options;
  const transport = transportOf(endpoint, options);
  const client = new Client(options.clientInfo, {
    // Elicitation: a server's questions are answered through onElicitation (or refused with a clear error), never
    // with -32601. Tasks: a call answered with a task is followed to its end (follow-mcp-task.ts). Apps: a tool's
    // `_meta.ui` and its ui:// resource pass on to serve's clients and the inspector (read-mcp-app-resource.ts).
    capabilities: {
      elicitation: { form: {} },
      extensions: { [TASKS_EXTENSION]: {}, [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } },
    },
    // 2026-07-28 when the server offers it (server/discover), else the 2025 initialize handshake.
    // Over stdio a silent probe means a 2025-era server, so it waits briefly; over HTTP silence is an outage, and a
    // pinned 2026-07-28 has no other way in, so those wait as long as connecting may (a server slow to start).
    versionNegotiation: {
      mode: protocol === "2025" ? "legacy" : protocol === "auto" ? "auto" : { pin: protocol },
      probe: {
        timeoutMs:
          "command" in endpoint && protocol === "auto"
            ? Math.min(PROBE_TIMEOUT_MS, connectTimeoutMs)
            : connectTimeoutMs,
      },
    },
  });
  const live: OpenMcpClient = {
    client,
    transport,
    lost: undefined,
    closing: false,
    listChangedEarly: false,
    subscription: undefined,
    checking: false,
  };
  client.onclose = () => events.lost(live, closeReasonOf(serverId, live));
  client.onerror = (error) => {
    // The SDK handles a request's last progress notification after its response; that one is no fault.
    if (error.message.startsWith("Received a progress notification for an unknown token")) return;
    if (live.lost === undefined && !live.closing) {
      events.error(
        error instanceof McpConnectionError
          ? error
          : new McpConnectionError("mcp-protocol-error", serverId, `MCP server ${serverId}: ${error.message}`, {
              cause: error,
            }),
      );
      // Over HTTP a dropped response stream is retried by the SDK for as long as the call's timeout:
      // if the server is gone, the calls in flight must fail now, not in a minute.
      if ("url" in endpoint && events.callsInFlight())
        void checkReachable(live, serverId, String(endpoint.url), events);
    }
  };
  client.setNotificationHandler("notifications/message", (notification) => {
    const { level, data, logger } = notification.params;
    events.log({ level, data: data as JsonValue, ...(typeof logger === "string" ? { logger } : {}) });
  });
  client.setNotificationHandler("notifications/tools/list_changed", () => events.listChanged(live));
  client.setRequestHandler(
    "elicitation/create",
    async (request, ctx) =>
      (await events.elicit(request.params as unknown as JsonObject, ctx.mcpReq.signal)) as { action: "cancel" },
  );
  try {
    await withinDeadline(client.connect(transport, { timeout: connectTimeoutMs }), connectTimeoutMs);
    passTaskResults(transport);
  } catch (error) {
    const failure = connectError(live, serverId, options, error);
    await closeMcpClient(live);
    throw failure;
  }
  // A 2026-07-28 server sends change notifications only on a listen stream; a 2025 one sends them unasked.
  if (client.getProtocolEra() === "modern" && client.getServerCapabilities()?.tools?.listChanged === true) {
    live.subscription = await client
      .listen({ toolsListChanged: true }, { timeout: connectTimeoutMs })
      .catch((error: unknown) => {
        events.error(
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

function transportOf(endpoint: McpEndpoint, options: OpenMcpClientOptions): Transport {
  if ("command" in endpoint) {
    return new ChildProcessTransport({
      serverId: endpoint.id,
      command: endpoint.command,
      args: endpoint.args,
      env: endpoint.env,
      cwd: endpoint.cwd,
      sandbox: serverSandbox(endpoint),
      onStderr: options.onStderr,
    });
  }
  if ("url" in endpoint) {
    const { authProvider } = options;
    return new AuthorizingHttpTransport(new URL(String(endpoint.url)), {
      requestInit: { headers: { ...endpoint.headers } },
      ...(authProvider === undefined ? {} : { authProvider }),
    });
  }
  return endpoint.transport();
}

/**
 * After a transport error with calls in flight: one quick request to the server's URL. No answer at
 * all (refused, reset, nothing within a second) means it is gone: the connection is dropped, and its
 * calls fail at once naming the server. Any HTTP answer means it is up, and the SDK goes on retrying.
 */
async function checkReachable(live: OpenMcpClient, serverId: string, url: string, events: McpClientEvents) {
  if (live.checking) return;
  live.checking = true;
  try {
    await fetch(url, { method: "OPTIONS", signal: AbortSignal.timeout(REACHABLE_TIMEOUT_MS) });
  } catch (error) {
    if (live.lost !== undefined || live.closing) return;
    events.lost(
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
    void closeMcpClient(live);
  } finally {
    live.checking = false;
  }
}

function closeReasonOf(serverId: string, live: OpenMcpClient): McpConnectionError {
  if (live.transport instanceof ChildProcessTransport && live.transport.closeReason !== undefined) {
    return live.transport.closeReason;
  }
  return new McpConnectionError("mcp-server-exited", serverId, `MCP server ${serverId} closed the connection`);
}

function connectError(
  live: OpenMcpClient,
  serverId: string,
  options: OpenMcpClientOptions,
  error: unknown,
): McpConnectionError {
  if (error instanceof McpConnectionError) return error;
  const unauthorized = authorizationFailure(serverId, error, options.authProvider !== undefined);
  if (unauthorized !== undefined) return unauthorized;
  if (isTimeout(error)) {
    return new McpConnectionError(
      "mcp-timeout",
      serverId,
      `MCP server ${serverId} did not complete the handshake within ${options.connectTimeoutMs} ms`,
      { cause: error },
    );
  }
  // A child process knows why it closed; over HTTP the thrown error says more than "closed", and so does
  // the SDK's error when it closed the process itself (a refused era, for example).
  const lost = live.transport instanceof ChildProcessTransport ? (live.transport.closeReason ?? live.lost) : undefined;
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
