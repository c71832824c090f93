// serveMcp: a session's active tools as an MCP server over stdio or Streamable HTTP, every call through dispatch.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import {
  type CallToolResult,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type Tool as McpTool,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import type { AgentSession } from "../core/dispatch/session.js";
import { describeThrown } from "../core/errors.js";
import type { DispatchOptions, ToolCallOutcome, ToolDescriptor, ToolLogEvent, ToolResult } from "../core/types.js";
import { approvalInputRequired, elicitApproval, readApprovalRetry } from "./approve-over-mcp.js";
import { McpServeError } from "./errors.js";
import { toMcpContent } from "./map-result.js";
import { createMemoryEventStore } from "./memory-event-store.js";

interface ServeCommonOptions {
  /** The server's name and version in the handshake. Default `toolwire`. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Instructions sent in the handshake (for example the session's system prompt). */
  readonly instructions?: string;
}

/** Serve over the process's stdin and stdout (or the given streams). */
export interface ServeMcpStdioOptions extends ServeCommonOptions {
  readonly transport: "stdio";
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

/** Serve over Streamable HTTP at `http://<host>:<port>/mcp`. */
export interface ServeMcpHttpOptions extends ServeCommonOptions {
  readonly transport: "http";
  /** Default `127.0.0.1` (loopback only). On a loopback host, requests for another Host are refused. */
  readonly host?: string;
  /** 0 picks a free port; the handle tells which. */
  readonly port: number;
}

export type ServeMcpOptions = ServeMcpStdioOptions | ServeMcpHttpOptions;

/** A running MCP server. */
export interface McpServerHandle {
  readonly transport: "stdio" | "http";
  /** For http: the bound port and the endpoint URL. */
  readonly port?: number;
  readonly url?: string;
  /** For http: how many MCP sessions (connected clients) are open now. */
  readonly sessions?: number;
  /** Resolves when the server stopped: `close()` was called, or (stdio) the client closed stdin. */
  readonly closed: Promise<void>;
  /** Stops serving and stops following the session's active tools. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long a 2025 client waits before it reconnects a dropped stream (the SSE `retry` field). */
const SSE_RETRY_MS = 1_000;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Exposes the session's active tools over MCP with their JSON Schemas unchanged (SPEC section 9).
 * Every `tools/call` goes through `session.dispatch` (validation, hooks, policy, timeouts), so a
 * refused or failed call is an `isError` result; a tool's `details.structuredContent` becomes the
 * result's `structuredContent`; `tool_execution_update`s become progress notifications when the
 * client asked for progress; a tool's `context.log` messages become log notifications (at or above the
 * level a client set with `logging/setLevel`); `notifications/tools/list_changed` is sent when the active set changes.
 */
export async function serveMcp(session: AgentSession, options: ServeMcpOptions): Promise<McpServerHandle> {
  const transport = (options as { transport?: unknown } | undefined)?.transport;
  if (transport === "stdio") return serveStdio(session, options as ServeMcpStdioOptions);
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
  return serveHttp(session, options as ServeMcpHttpOptions);
}

/**
 * Over stdio the SDK pins the connection to one era at its first message (a 2025 `initialize`, or a
 * 2026-07-28 request) and to one server instance, which is the one told when the tools change.
 */
async function serveStdio(session: AgentSession, options: ServeMcpStdioOptions): Promise<McpServerHandle> {
  let latest: Server | undefined;
  const served = serveSdkStdio(
    () => {
      latest = createToolServer(session, options);
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

/**
 * Over HTTP, a 2026-07-28 request is served statelessly: a fresh server instance per request, nothing
 * kept between them, so any number of processes can answer. A 2025-era client opens a session with
 * `initialize` and keeps it (its own server instance, the GET stream for notifications, elicitation).
 */
async function serveHttp(session: AgentSession, options: ServeMcpHttpOptions): Promise<McpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const sessions = new Map<string, { server: Server; transport: NodeStreamableHTTPServerTransport }>();
  let port = options.port;
  const modern = createMcpHandler(() => createToolServer(session, options), { legacy: "reject" });
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: MAX_BODY_BYTES });
  const unsubscribe = session.onActiveToolsChange(() => {
    modern.notify.toolsChanged();
    for (const { server } of sessions.values()) server.sendToolListChanged().catch(() => undefined);
  });
  const loopback = LOOPBACK_HOSTS.has(host);

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return sendJsonRpcError(response, 404, -32601, `Not found: the MCP endpoint is /mcp`);
    if (loopback && !allowedLoopbackHost(request.headers.host, port)) {
      return sendJsonRpcError(
        response,
        403,
        -32000,
        `Forbidden: Host ${String(request.headers.host)} is not this server`,
      );
    }
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const known = sessions.get(sessionId);
      if (known === undefined) return sendJsonRpcError(response, 404, -32001, "Session not found");
      return known.transport.handleRequest(request, response);
    }
    if (request.method !== "POST") {
      return sendJsonRpcError(
        response,
        405,
        -32000,
        "Method not allowed: send requests with POST (a 2025 session's GET and DELETE need its mcp-session-id)",
      );
    }
    const body = await readJsonBody(request);
    if (body instanceof Error) return sendJsonRpcError(response, 400, -32700, `Parse error: ${body.message}`);
    if (!(await isLegacyRequest(await toWebRequest(request, body), body))) return serveModern(request, response, body);
    if (!isInitializeRequest(body)) {
      return sendJsonRpcError(response, 400, -32000, "Bad Request: no valid session id (mcp-session-id)");
    }
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams: a priming event, a retry delay, and the events a dropped client asks for again.
      eventStore: createMemoryEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport });
      },
    });
    const server = createToolServer(session, options);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
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
    unsubscribe();
    throw new McpServeError(
      "serve-failed",
      `serveMcp could not listen on ${host}:${options.port}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  return {
    transport: "http",
    port,
    url: `http://${urlHost}:${port}/mcp`,
    get sessions() {
      return sessions.size;
    },
    closed,
    async close() {
      unsubscribe();
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(({ server }) => server.close().catch(() => undefined)));
      await modern.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      resolveClosed();
    },
  };
}

/** A low-level MCP `Server` (it serves raw JSON Schema as is) whose tools are the session's active tools. */
function createToolServer(session: AgentSession, options: ServeCommonOptions): Server {
  const server = new Server(options.serverInfo ?? { name: "toolwire", version: "0.1.0" }, {
    // logging: the SDK answers logging/setLevel and drops messages below the level a client set.
    capabilities: { tools: { listChanged: true }, logging: {} },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  server.setRequestHandler("tools/list", (request) => listPage(session, request.params?.cursor));
  server.setRequestHandler("tools/call", (request, ctx) => callTool(session, server, request.params, ctx));
  return server;
}

let calls = 0;

/** How many tools one `tools/list` page holds; a larger registry is listed over several pages. */
export const TOOLS_PAGE_SIZE = 200;

/** One page of the active tools; the cursor is the offset of the next page, as opaque text. */
function listPage(session: AgentSession, cursor: unknown): { tools: McpTool[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = typeof cursor === "string" ? Number(Buffer.from(cursor, "base64url").toString("utf8")) : Number.NaN;
    if (!Number.isSafeInteger(decoded) || decoded < 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor for tools/list: ${String(cursor)}`);
    }
    offset = decoded;
  }
  const active = [...session.activeTools.values()];
  const tools = active.slice(offset, offset + TOOLS_PAGE_SIZE).map((tool) => toMcpTool(tool.descriptor));
  const next = offset + TOOLS_PAGE_SIZE;
  return next < active.length
    ? { tools, nextCursor: Buffer.from(String(next), "utf8").toString("base64url") }
    : { tools };
}

/** One `tools/call` through `session.dispatchDetailed`: refusals and failures are `isError` results. */
async function callTool(
  session: AgentSession,
  server: Server,
  params: {
    readonly name: string;
    readonly arguments?: Record<string, unknown>;
    readonly _meta?: { progressToken?: unknown };
  },
  ctx: ServerContext,
): Promise<CallToolResult> {
  const id = `mcp-${++calls}-${String(ctx.mcpReq.id)}`;
  const onUpdate = progressForwarder(ctx, params._meta?.progressToken);
  // A call that needs approval asks the client that made it, when that client can show a question to its
  // user: a 2025 client through an elicitation request, a 2026-07-28 client through an input_required result.
  const legacy = server.getNegotiatedProtocolVersion()?.startsWith("2025") === true;
  const canAsk = server.getClientCapabilities()?.elicitation !== undefined;
  const approvals = session.approvals;
  const active = session.activeTools.get(params.name);
  const onLog = (entry: ToolLogEvent) => {
    ctx.mcpReq.log(entry.level, entry.data, entry.logger).catch(() => undefined);
  };
  const dispatchOptions: DispatchOptions = {
    signal: ctx.mcpReq.signal,
    onLog,
    ...(onUpdate === undefined ? {} : { onUpdate }),
    ...(legacy && canAsk ? { approver: elicitApproval(ctx) } : {}),
    ...(!legacy && canAsk && approvals !== undefined ? { pauseForApproval: true } : {}),
  };
  const retry = legacy || approvals === undefined ? undefined : readApprovalRetry(approvals, ctx, params.name);
  if (retry === "invalid") {
    return {
      content: [
        { type: "text", text: `The approval state of this call to ${params.name} is not valid; it was not run.` },
      ],
      isError: true,
    };
  }
  let outcome: ToolCallOutcome;
  if (retry !== undefined && approvals !== undefined) {
    try {
      [outcome] = (await approvals.resume([retry], dispatchOptions)) as [ToolCallOutcome];
    } catch (error) {
      return { content: [{ type: "text", text: `${describeThrown(error)} It was not run again.` }], isError: true };
    }
  } else {
    outcome = await session.dispatchDetailed({ id, name: params.name, input: params.arguments ?? {} }, dispatchOptions);
  }
  if (outcome.pendingApproval !== undefined && approvals !== undefined) {
    return approvalInputRequired(approvals, outcome.pendingApproval) as unknown as CallToolResult;
  }
  return server.projectCallToolResult(toCallToolResult(outcome), active?.descriptor.outputSchema);
}

/** `onUpdate` partials as progress notifications, when the client sent a progress token. */
function progressForwarder(ctx: ServerContext, progressToken: unknown): ((partial: ToolResult) => void) | undefined {
  if (typeof progressToken !== "string" && typeof progressToken !== "number") return undefined;
  let progress = 0;
  return (partial) => {
    const message = partial.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
    void ctx.mcpReq
      .notify({
        method: "notifications/progress",
        params: { progressToken, progress: ++progress, ...(message.length > 0 ? { message: message.join("\n") } : {}) },
      })
      .catch(() => undefined);
  };
}

/** A call's outcome as an MCP result: its content blocks, `isError`, and `details.structuredContent` when it succeeded. */
function toCallToolResult({ block, result: final }: ToolCallOutcome): CallToolResult {
  const result: CallToolResult = { content: toMcpContent(block.content) };
  if (block.is_error === true) result.isError = true;
  const structured = structuredContentOf(final.details);
  if (structured !== undefined && block.is_error !== true) result.structuredContent = structured;
  return result;
}

/** A descriptor as an MCP tool: name, title, description, inputSchema and outputSchema (unchanged), annotations, icons, _meta. */
function toMcpTool(descriptor: ToolDescriptor): McpTool {
  const tool: Record<string, unknown> = {
    name: descriptor.name,
    description: descriptor.description,
    inputSchema: descriptor.inputSchema,
  };
  if (descriptor.outputSchema !== undefined) tool.outputSchema = descriptor.outputSchema;
  if (descriptor.title !== undefined) tool.title = descriptor.title;
  if (descriptor.annotations !== undefined) tool.annotations = descriptor.annotations;
  if (descriptor.icons !== undefined) tool.icons = descriptor.icons;
  if (descriptor._meta !== undefined) tool._meta = descriptor._meta;
  return tool as McpTool;
}

function structuredContentOf(details: unknown): Record<string, unknown> | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const structured = (details as { structuredContent?: unknown }).structuredContent;
  return typeof structured === "object" && structured !== null && !Array.isArray(structured)
    ? (structured as Record<string, unknown>)
    : undefined;
}

function readJsonBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        resolve(error as Error);
      }
    });
    request.on("error", (error) => resolve(error));
  });
}

/** Whether a Host header names this loopback server (a DNS-rebinding page's host does not). */
function allowedLoopbackHost(header: string | undefined, port: number): boolean {
  if (header === undefined) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(header.toLowerCase());
}

function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
