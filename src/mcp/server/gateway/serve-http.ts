// serveHttp: the gateway over Streamable HTTP: checks, credentials, a session per principal, limits, audit, then MCP.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isInitializeRequest } from "@modelcontextprotocol/server";
import { describeThrown } from "../../../core/errors.js";
import { isRecord } from "../../../core/json.js";
import { McpServeError } from "../errors.js";
import { createServedTasks } from "../tasks/served-tasks.js";
import type { ToolServerOptions } from "../tool-server.js";
import { type AuditLog, openAuditLog } from "./audit-log.js";
import { createGatewayAuthenticator, type GatewayAuthenticator, type Principal } from "./authenticate.js";
import { checkParamHeaders, HEADER_MISMATCH } from "./check-param-headers.js";
import { checkRequestOrigin, validateAllowedHosts, validateAllowedOrigins } from "./check-request-origin.js";
import type { GatewayOptions } from "./gateway-options.js";
import { isLegacyRequest } from "./is-legacy-request.js";
import { isLoopbackHost } from "./is-loopback-host.js";
import { type LegacySession, openLegacySession } from "./open-legacy-session.js";
import { createPrincipalServings, type PrincipalServing, type SessionSource } from "./principal-servings.js";
import { createRateLimiter, type RateLimiter } from "./rate-limiter.js";
import { readJsonBody } from "./read-json-body.js";
import { sendJsonRpcError } from "./send-json-rpc-error.js";
import {
  createSessionTable,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  type SessionTable,
} from "./session-table.js";

/** Serve over Streamable HTTP: the MCP endpoint is the path `/mcp` on `host` and `port`. */
export interface ServeMcpHttpOptions extends ToolServerOptions, GatewayOptions {
  readonly transport: "http";
  /** Default `127.0.0.1` (loopback only). A host that is not loopback needs `auth`. */
  readonly host?: string;
  /** 0 picks a free port; the handle tells which. */
  readonly port: number;
  /**
   * Told of what goes wrong while serving that no request hears of: the audit log's problems (a failed write, a full
   * queue, dropped or lost entries), one sentence each. Must not throw. Default: a process warning.
   */
  readonly onWarning?: (message: string) => void;
}

/** A running gateway. */
export interface HttpServerHandle {
  readonly transport: "http";
  readonly port: number;
  readonly url: string;
  /** How many 2025-era MCP sessions are open now. */
  readonly sessions: number;
  /** How many principals have a session being served now. */
  readonly principals: number;
  /** With `auth`: the protected resource metadata URL (RFC 9728). */
  readonly resourceMetadataUrl?: string;
  readonly closed: Promise<void>;
  /**
   * Stops serving: closes the sessions and connections, then the audit log, which gets `audit.closeTimeoutMs` to
   * write its queue. With `now`, also while a close is under way, the audit log stops waiting at once (what it
   * has not written is lost, and counted in a process warning).
   */
  close(options?: { readonly now?: boolean }): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);
/** Who calls when the server asks for no credentials (loopback only). */
const LOCAL_PRINCIPAL: Principal = { id: "local", via: "none", policy: [], scopes: [] };

/**
 * Over HTTP, a 2026-07-28 request is served statelessly: a fresh server instance per request, nothing
 * kept between them, so any number of processes can answer. A 2025-era client opens a session with
 * `initialize` and keeps it (its own server instance, the GET stream for notifications, elicitation).
 * Each request passes, in order: the Host and Origin checks (403), the credential (401/403), the
 * principal's session (404 for another principal's session id), the rate limit and session caps (429).
 */
export async function serveHttp(source: SessionSource, options: ServeMcpHttpOptions): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  if (!loopback && options.auth === undefined) {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp on ${host} needs auth: without credentials it serves loopback hosts only (127.0.0.1, ::1, localhost)`,
    );
  }
  const wildcard = WILDCARD_HOSTS.has(host);
  const oauth = options.auth?.oauth;
  if (wildcard && options.publicUrl === undefined && oauth !== undefined && oauth.audience === undefined) {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp on ${host} with oauth needs publicUrl or oauth.audience: an address that stands for every interface does not say which audience access tokens are for`,
    );
  }
  if (options.allowedOrigins !== undefined) validateAllowedOrigins(options.allowedOrigins);
  const publicHost = options.publicUrl === undefined ? undefined : publicHostOf(options.publicUrl);
  const allowedHosts = [...(options.allowedHosts ?? []), ...(publicHost === undefined ? [] : [publicHost])];
  validateAllowedHosts(allowedHosts);
  const idleTimeoutMs = options.sessions?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const tasks = createServedTasks(options.tasks);
  const limiter: RateLimiter | undefined =
    options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  const audit: AuditLog | undefined =
    options.audit === undefined
      ? undefined
      : await openAuditLog({
          ...options.audit,
          onError: (error) =>
            options.onWarning === undefined
              ? process.emitWarning(`toolwire serve: ${error.message}`)
              : options.onWarning(error.message),
        });

  const servings = createPrincipalServings(source, {
    toolServer: options,
    audit,
    tasks,
    idleTimeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  const table: SessionTable<LegacySession> = createSessionTable<LegacySession>({
    idleTimeoutMs,
    maxPerPrincipal: options.sessions?.maxPerPrincipal ?? DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
    max: options.sessions?.max ?? DEFAULT_MAX_SESSIONS,
    dispose: async (value, id) => {
      servings.ready(value.principal)?.legacy.delete(id);
      await value.server.close().catch(() => undefined);
    },
  });

  let port = options.port;
  let authenticator: GatewayAuthenticator | undefined;
  // Bound to every interface and no publicUrl: the metadata's URLs are told as the client addressed the server
  // (its Host header, already checked), since 0.0.0.0 is no address a client can use.
  const asSeenBy = (request: IncomingMessage): string | undefined =>
    wildcard && options.publicUrl === undefined && request.headers.host !== undefined
      ? `http://${request.headers.host}`
      : undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const refused = checkRequestOrigin(
      { host: request.headers.host, origin: request.headers.origin },
      {
        boundHost: host,
        port,
        ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
        allowedHosts,
      },
    );
    if (refused !== undefined) return sendJsonRpcError(response, 403, -32000, refused);
    if (authenticator?.metadataPaths.includes(path) === true) {
      return sendMetadata(request, response, authenticator.metadata(asSeenBy(request)));
    }
    if (path !== "/mcp") return sendJsonRpcError(response, 404, -32601, "Not found: the MCP endpoint is /mcp");

    let principal = LOCAL_PRINCIPAL;
    if (authenticator !== undefined) {
      const outcome = await authenticator.authenticate(request.headers.authorization, asSeenBy(request));
      if (!outcome.ok) return sendJsonRpcError(response, outcome.status, -32001, outcome.message, outcome.headers);
      principal = outcome.principal;
    }
    let serving: PrincipalServing;
    try {
      serving = await servings.servingFor(principal);
    } catch (error) {
      return sendJsonRpcError(response, 500, -32603, `No session for ${principal.id}: ${describeThrown(error)}`);
    }
    serving.inFlight++;
    try {
      await serve(request, response, serving);
    } finally {
      serving.inFlight--;
      serving.lastUsed = Date.now();
    }
  };

  /** Takes `calls` from the principal's bucket; when it runs dry, answers 429 and says false. */
  const withinRateLimit = (response: ServerResponse, principal: Principal, calls: number): boolean => {
    for (let left = calls; left > 0 && limiter !== undefined; left--) {
      const taken = limiter.take(principal.id);
      if (!taken.ok) {
        sendJsonRpcError(
          response,
          429,
          -32000,
          `Too many requests: ${principal.id} may make ${options.rateLimit?.callsPerMinute} tool calls a minute; retry in ${taken.retryAfterSeconds} s`,
          { "retry-after": String(taken.retryAfterSeconds) },
        );
        return false;
      }
    }
    return true;
  };

  const serve = async (request: IncomingMessage, response: ServerResponse, serving: PrincipalServing) => {
    const { principal } = serving;
    const sessionId = request.headers["mcp-session-id"];
    // A 2026-07-28 call names its method in a header, so a call over the limit is refused before its body is read;
    // the calls in the body are counted too (less the one already taken), whatever the header said.
    const counted = limiter !== undefined && request.headers["mcp-method"] === "tools/call" ? 1 : 0;
    if (counted > 0 && !withinRateLimit(response, principal, counted)) return;
    const body = request.method === "POST" ? await readJsonBody(request, MAX_BODY_BYTES) : undefined;
    if (body instanceof Error) return sendJsonRpcError(response, 400, -32700, `Parse error: ${body.message}`);
    if (limiter !== undefined && body !== undefined) {
      if (!withinRateLimit(response, principal, countToolCalls(body) - counted)) return;
    }
    if (typeof sessionId === "string") {
      // Another principal's session id is answered as if it did not exist: ids cannot be probed.
      const known = table.get(sessionId, principal.id);
      if (known.kind !== "found") return sendJsonRpcError(response, 404, -32001, "Session not found");
      await known.value.transport.handleRequest(request, response, body);
      if (request.method === "DELETE") table.delete(sessionId);
      return;
    }
    if (request.method !== "POST") {
      return sendJsonRpcError(
        response,
        405,
        -32000,
        "Method not allowed: send requests with POST (a 2025 session's GET and DELETE need its mcp-session-id)",
      );
    }
    if (!isLegacyRequest(request, body)) {
      const mismatch = paramHeaderMismatch(request, body, serving);
      if (mismatch !== undefined) {
        return sendJsonRpcError(
          response,
          400,
          HEADER_MISMATCH,
          `Header mismatch: ${mismatch.message}`,
          {},
          mismatch.id,
        );
      }
      return serving.serveModern(request, response, body);
    }
    if (!isInitializeRequest(body)) {
      return sendJsonRpcError(response, 400, -32000, "Bad Request: no valid session id (mcp-session-id)");
    }
    const reserved = table.reserve(principal.id);
    if (!reserved.ok) {
      const whose = reserved.limit === "principal" ? `${principal.id} has` : "the server has";
      return sendJsonRpcError(
        response,
        429,
        -32000,
        `Too many sessions: ${whose} as many open MCP sessions as allowed; close one (DELETE) or retry in ${reserved.retryAfterSeconds} s`,
        { "retry-after": String(reserved.retryAfterSeconds) },
      );
    }
    await openLegacySession(request, response, body, serving, table, options);
  };

  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, `Internal error: ${String(error)}`);
      else response.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once("error", reject);
      httpServer.listen(options.port, host, () => {
        httpServer.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await Promise.all([servings.close(), table.close(), audit?.close(), tasks.close()]);
    throw new McpServeError(
      "serve-failed",
      `serveMcp could not listen on ${host}:${options.port}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}/mcp`;
  if (options.auth !== undefined) {
    const resourceUrl = options.publicUrl ?? options.auth.oauth?.audience ?? url;
    authenticator = createGatewayAuthenticator(options.auth, { resourceUrl });
  }
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  return {
    transport: "http",
    port,
    url,
    get sessions() {
      return table.size;
    },
    get principals() {
      return servings.size;
    },
    ...(authenticator === undefined ? {} : { resourceMetadataUrl: authenticator.metadataUrl }),
    closed,
    close(closeOptions) {
      if (closeOptions?.now === true) void audit?.close({ now: true });
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await table.close();
        await servings.close();
        await tasks.close();
        httpServer.closeAllConnections();
        await stopped;
        // Last: every call that ended before the close is in the log (or counted as lost past the deadline).
        await audit?.close();
        resolveClosed();
      })();
      return closing;
    },
  };
}

/** The Host header value of `publicUrl` (its host, and its port when it names one). */
function publicHostOf(publicUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(publicUrl);
  } catch {
    throw new McpServeError("invalid-serve-options", `serveMcp needs publicUrl to be a URL, got ${publicUrl}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new McpServeError("invalid-serve-options", `serveMcp needs publicUrl to be http or https, got ${publicUrl}`);
  }
  return parsed.host;
}

/**
 * Why a 2026-07-28 `tools/call` body disagrees with its `Mcp-Param-*` headers (the called tool's `x-mcp-header`
 * declarations say which), with the request's id; `undefined` for other requests and for an unknown tool.
 */
function paramHeaderMismatch(
  request: IncomingMessage,
  body: unknown,
  serving: PrincipalServing,
): { readonly message: string; readonly id: string | number | null } | undefined {
  if (!isRecord(body) || body.method !== "tools/call" || !isRecord(body.params)) return undefined;
  const tool = typeof body.params.name === "string" ? serving.session.activeTools.get(body.params.name) : undefined;
  if (tool === undefined) return undefined;
  const message = checkParamHeaders(tool.descriptor.inputSchema, body.params.arguments, request.headers);
  if (message === undefined) return undefined;
  return { message, id: typeof body.id === "string" || typeof body.id === "number" ? body.id : null };
}

/** How many `tools/call` requests a body holds (a 2025-03-26 client may send a batch). */
function countToolCalls(body: unknown): number {
  if (Array.isArray(body)) return body.reduce((count: number, item) => count + countToolCalls(item), 0);
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "tools/call" ? 1 : 0;
}

function sendMetadata(request: IncomingMessage, response: ServerResponse, metadata: Record<string, unknown>) {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return sendJsonRpcError(response, 405, -32000, "Method not allowed: the resource metadata is read with GET");
  }
  response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
  response.end(request.method === "HEAD" ? undefined : JSON.stringify(metadata));
}
