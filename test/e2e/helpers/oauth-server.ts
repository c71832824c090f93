// An OAuth-protected MCP server on loopback: toolwire's own serveMcp behind a front that plays the resource server
// (401 with resource metadata, Bearer check) and an authorization server that approves every request at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createAgentSession, createToolRegistry, defineTool } from "../../../src/index.js";
import { type McpServerHandle, serveMcp } from "../../../src/mcp/api.js";

export interface ProtectedMcpServer {
  /** The MCP endpoint the bridge connects to. */
  readonly url: string;
  /** How many times the authorization endpoint was visited (one per login), at every authorization server. */
  readonly logins: () => number;
  /** The authorization server the resource metadata names now (the first one shares the resource's origin). */
  readonly authorizationServer: () => AuthorizationServerLog;
  /**
   * Moves the resource to a new authorization server on its own port: the resource metadata names it from now on,
   * and the resource refuses every token issued before (as one would after a migration). Resolves to its log.
   */
  moveAuthorizationServer(): Promise<AuthorizationServerLog>;
  close(): Promise<void>;
}

/** What one authorization server saw. */
export interface AuthorizationServerLog {
  /** Its issuer. */
  readonly origin: string;
  /** The client ids it registered (RFC 7591), in order. */
  readonly registered: string[];
  /** The client ids presented at its authorization and token endpoints, in order. */
  readonly clientIdsSeen: string[];
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * Answers an authorization server's requests (metadata, registration, authorization that approves at once, token);
 * false for a path that is not one of them. Every token it issues goes into `accepted`.
 */
async function answerAsAuthorizationServer(
  request: IncomingMessage,
  response: ServerResponse,
  log: AuthorizationServerLog,
  accepted: Set<string>,
  counters: { logins: number; tokens: number },
): Promise<boolean> {
  const { origin } = log;
  const url = new URL(request.url ?? "/", origin);
  const json = (status: number, value: unknown) =>
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
  switch (url.pathname) {
    case "/.well-known/oauth-authorization-server":
      json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
      return true;
    case "/register": {
      const metadata = JSON.parse((await readBody(request)).toString("utf8")) as { redirect_uris: string[] };
      // Each server's client ids are its own: they name its port.
      const id = `toolwire-test-${new URL(origin).port}-${log.registered.length + 1}`;
      log.registered.push(id);
      json(201, { client_id: id, redirect_uris: metadata.redirect_uris });
      return true;
    }
    case "/authorize": {
      counters.logins++;
      log.clientIdsSeen.push(url.searchParams.get("client_id") ?? "");
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      redirect.searchParams.set("code", `code-${counters.logins}`);
      const state = url.searchParams.get("state");
      if (state !== null) redirect.searchParams.set("state", state);
      response.writeHead(302, { location: redirect.href }).end();
      return true;
    }
    case "/token": {
      const params = new URLSearchParams((await readBody(request)).toString("utf8"));
      log.clientIdsSeen.push(params.get("client_id") ?? "");
      counters.tokens++;
      const token = `token-${counters.tokens}`;
      accepted.add(token);
      json(200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
      return true;
    }
    default:
      return false;
  }
}

/** Starts the server with one tool, `add`; it accepts only the tokens its current authorization server issued. */
export async function startProtectedMcpServer(): Promise<ProtectedMcpServer> {
  const add = defineTool({
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    execute: ({ a, b }) => `${Number(a) + Number(b)}`,
  });
  const session = createAgentSession({ registry: createToolRegistry({ custom: [add], disableBuiltInTools: true }) });
  const upstream: McpServerHandle = await serveMcp(session, { transport: "http", port: 0 });
  const counters = { logins: 0, tokens: 0 };
  let accepted = new Set<string>();
  let origin = "";
  // The first authorization server shares the resource's origin; a move puts the next one on its own port.
  const first: AuthorizationServerLog = { origin: "", registered: [], clientIdsSeen: [] };
  let current = first;
  const moved: Server[] = [];
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", origin);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [current.origin] });
    }
    if (url.pathname !== "/mcp") {
      // After a move the first server still answers, but what it issues goes nowhere.
      const into = current === first ? accepted : new Set<string>();
      if (await answerAsAuthorizationServer(request, response, first, into, counters)) return;
      return json(404, { error: "not_found" });
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (bearer === undefined || !accepted.has(bearer)) {
      return json(
        401,
        { error: "invalid_token" },
        { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` },
      );
    }
    const body = await readBody(request);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "authorization" && name !== "content-length")
        headers[name] = value;
    }
    const answer = await fetch(upstream.url as string, {
      method: request.method ?? "GET",
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection") out[name] = value;
    });
    response.writeHead(answer.status, out);
    if (answer.body === null) return response.end();
    for await (const chunk of answer.body) response.write(chunk);
    return response.end();
  });
  origin = await listenOnLoopback(server);
  (first as { origin: string }).origin = origin;
  return {
    url: `${origin}/mcp`,
    logins: () => counters.logins,
    authorizationServer: () => current,
    async moveAuthorizationServer() {
      const log: AuthorizationServerLog = { origin: "", registered: [], clientIdsSeen: [] };
      const next = new Set<string>();
      const other = createServer(async (request, response) => {
        if (!(await answerAsAuthorizationServer(request, response, log, next, counters))) {
          response.writeHead(404).end();
        }
      });
      moved.push(other);
      (log as { origin: string }).origin = await listenOnLoopback(other);
      current = log;
      accepted = next;
      return log;
    },
    async close() {
      for (const each of [server, ...moved]) {
        await new Promise<void>((resolve) => {
          each.closeAllConnections();
          each.close(() => resolve());
        });
      }
      await upstream.close();
    },
  };
}

/** Listens on a free port of 127.0.0.1 and resolves to the origin. */
async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
