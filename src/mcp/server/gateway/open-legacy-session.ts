// openLegacySession: a 2025-era client's `initialize` answered with a session of its own, kept in the session table.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { Server } from "@modelcontextprotocol/server";
import { createMemoryEventStore } from "../memory-event-store.js";
import { createToolServer, type ToolServerOptions } from "../tool-server.js";
import { primeResumableStreams } from "./prime-resumable-streams.js";
import type { PrincipalServing } from "./principal-servings.js";
import type { SessionTable } from "./session-table.js";

/** One open 2025-era session: whose it is, its server instance and its transport. */
export interface LegacySession {
  readonly principal: string;
  readonly server: Server;
  readonly transport: NodeStreamableHTTPServerTransport;
}

/** How long a 2025 client waits before it reconnects a dropped stream (the SSE `retry` field). */
const SSE_RETRY_MS = 1_000;

/**
 * Serves the `initialize` request in `body` with a new session of `serving`'s principal: its own server instance
 * over the principal's session, a transport with resumable streams (a priming event, a retry delay, the events a
 * dropped client asks for again). Once the transport names the session, it is added to `table` under the place
 * the caller reserved there, and to the serving's open sessions; if it never does, the reservation is cancelled
 * and the server closed. A transport that closes leaves the table.
 */
export async function openLegacySession(
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  serving: PrincipalServing,
  table: SessionTable<LegacySession>,
  options: ToolServerOptions,
): Promise<void> {
  const { principal } = serving;
  let added = false;
  const server = createToolServer(serving.session, options, serving.hooks);
  const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore: createMemoryEventStore(),
    retryInterval: SSE_RETRY_MS,
    onsessioninitialized: (id) => {
      added = true;
      table.add(principal.id, id, { principal: principal.id, server, transport });
      serving.legacy.set(id, server);
    },
  });
  primeResumableStreams(transport, server);
  transport.onclose = () => {
    if (transport.sessionId !== undefined) table.delete(transport.sessionId);
  };
  try {
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  } finally {
    if (!added) {
      table.cancel(principal.id);
      await server.close().catch(() => undefined);
    }
  }
}
