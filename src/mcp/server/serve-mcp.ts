// serveMcp: a session's active tools as an MCP server over stdio or Streamable HTTP, every call through dispatch.
import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import type { AgentSession } from "../../core/dispatch/session.js";
import { McpServeError } from "./errors.js";
import type { Principal } from "./gateway/authenticate.js";
import type { SessionSource } from "./gateway/principal-servings.js";
import type { ServeMcpHttpOptions } from "./gateway/serve-http.js";
import type { ServeTasksOptions } from "./tasks/serve-tasks-options.js";
import { createServedTasks } from "./tasks/served-tasks.js";
import { createToolServer, type ToolServerOptions } from "./tool-server.js";

/** Serve over the process's stdin and stdout (or the given streams). */
export interface ServeMcpStdioOptions extends ToolServerOptions {
  readonly transport: "stdio";
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Tasks for a 2026-07-28 client that declares the tasks extension (docs/mcp.md#tasks). */
  readonly tasks?: ServeTasksOptions;
}

/** `serveMcp`'s options: over stdio, or over Streamable HTTP with the gateway's options. */
export type ServeMcpOptions = ServeMcpStdioOptions | ServeMcpHttpOptions;

/** A running MCP server. */
export interface McpServerHandle {
  readonly transport: "stdio" | "http";
  /** For http: the bound port and the endpoint URL. */
  readonly port?: number;
  readonly url?: string;
  /** For http: how many 2025-era MCP sessions (clients that keep a session) are open now. */
  readonly sessions?: number;
  /** For http: how many principals are being served now (each has its own session when `source` is a function). */
  readonly principals?: number;
  /** For http with `auth`: where the protected resource metadata (RFC 9728) is served. */
  readonly resourceMetadataUrl?: string;
  /** Resolves when the server stopped: `close()` was called, or (stdio) the client closed stdin. */
  readonly closed: Promise<void>;
  /**
   * Stops serving and stops following the session's active tools. For http, `now` stops waiting for the audit log
   * to write its queue (see `HttpServerHandle`).
   */
  close(options?: { readonly now?: boolean }): Promise<void>;
}

/** The principal of a stdio client: the process that started the server. */
const STDIO_PRINCIPAL: Principal = { id: "stdio", via: "none", policy: [], scopes: [] };

/**
 * Exposes the session's active tools over MCP with their JSON Schemas unchanged (docs/mcp.md).
 * Every `tools/call` goes through `session.dispatch` (validation, hooks, policy, timeouts), so a
 * refused or failed call is an `isError` result; a tool's `details.structuredContent` becomes the
 * result's `structuredContent`; `tool_execution_update`s become progress notifications when the
 * client asked for progress; a tool's `context.log` messages become log notifications (at or above the
 * level a client set with `logging/setLevel`); `notifications/tools/list_changed` is sent when the active set changes.
 *
 * `source` is one session for every client, or a function that gives each principal (who a credential
 * names, docs/serve.md) its own session. Over HTTP the gateway options apply: `auth` (needed on a host
 * that is not loopback), `allowedOrigins`, `allowedHosts`, `sessions`, `rateLimit`, `audit`.
 */
export async function serveMcp(source: SessionSource, options: ServeMcpOptions): Promise<McpServerHandle> {
  const transport = (options as { transport?: unknown } | undefined)?.transport;
  const { listTtlMs, listCacheScope } = (options ?? {}) as { listTtlMs?: unknown; listCacheScope?: unknown };
  if (listCacheScope !== undefined && listCacheScope !== "public" && listCacheScope !== "private") {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp needs listCacheScope to be "public" or "private", got ${JSON.stringify(listCacheScope) ?? String(listCacheScope)}`,
    );
  }
  if (listTtlMs !== undefined && !(Number.isSafeInteger(listTtlMs) && (listTtlMs as number) >= 0)) {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp needs listTtlMs to be a whole number of milliseconds, 0 or more, got ${String(listTtlMs)}`,
    );
  }
  if (transport === "stdio") {
    const owned = typeof source === "function";
    const session = owned ? await source(STDIO_PRINCIPAL) : source;
    return serveStdio(session, options as ServeMcpStdioOptions, owned);
  }
  if (transport !== "http") {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp needs transport "stdio" or "http", got ${JSON.stringify(transport) ?? "undefined"}`,
    );
  }
  const { port, host } = options as ServeMcpHttpOptions;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new McpServeError("invalid-serve-options", `serveMcp needs a port from 0 to 65535, got ${String(port)}`);
  }
  if (host !== undefined && (typeof host !== "string" || host.trim() === "")) {
    throw new McpServeError(
      "invalid-serve-options",
      `serveMcp needs host to be a non-empty string, got ${String(host)}`,
    );
  }
  // The gateway (HTTP, auth, OAuth, the audit log) is loaded only to serve over HTTP.
  const { serveHttp } = await import("./gateway/serve-http.js");
  return serveHttp(source, options as ServeMcpHttpOptions);
}

/**
 * Over stdio the SDK pins the connection to one era at its first message (a 2025 `initialize`, or a
 * 2026-07-28 request) and to one server instance, which is the one told when the tools change.
 */
async function serveStdio(
  session: AgentSession,
  options: ServeMcpStdioOptions,
  owned: boolean,
): Promise<McpServerHandle> {
  let latest: Server | undefined;
  const tasks = createServedTasks(options.tasks);
  const served = serveSdkStdio(
    () => {
      latest = createToolServer(session, options, { tasks: { principal: STDIO_PRINCIPAL.id, served: tasks } });
      return latest;
    },
    { transport: new StdioServerTransport(options.stdin, options.stdout) },
  );
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const unsubscribe = session.onActiveToolsChange(() => {
    latest?.sendToolListChanged().catch(() => undefined);
  });
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    unsubscribe();
    await served.close().catch(() => undefined);
    await tasks.close();
    if (owned) session.close();
    resolveClosed();
  };
  const stdin = options.stdin ?? process.stdin;
  const onEnd = () => void finish();
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  return {
    transport: "stdio",
    closed,
    async close() {
      stdin.off("end", onEnd);
      stdin.off("close", onEnd);
      await finish();
    },
  };
}
