// An OAuth-protected MCP server on loopback: toolwire's own serveMcp behind a front that plays the resource server
// (401 with resource metadata, Bearer check) and an authorization server that approves every request at once.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createAgentSession, createToolRegistry, defineTool } from "../../../src/index.js";
import { type McpServerHandle, serveMcp } from "../../../src/mcp/api.js";

export interface ProtectedMcpServer {
  /** The MCP endpoint the bridge connects to. */
  readonly url: string;
  /** How many times the authorization endpoint was visited (one per login). */
  readonly logins: () => number;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

/** Starts the server with one tool, `add`; tokens it issued are the only ones it accepts. */
export async function startProtectedMcpServer(): Promise<ProtectedMcpServer> {
  const add = defineTool({
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    execute: ({ a, b }) => `${Number(a) + Number(b)}`,
  });
  const session = createAgentSession({ registry: createToolRegistry({ custom: [add], disableBuiltInTools: true }) });
  const upstream: McpServerHandle = await serveMcp(session, { transport: "http", port: 0 });
  const tokens = new Set<string>();
  let logins = 0;
  let origin = "";
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", origin);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
    switch (url.pathname) {
      case "/.well-known/oauth-protected-resource/mcp":
        return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      case "/.well-known/oauth-authorization-server":
        return json(200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      case "/register": {
        const metadata = JSON.parse((await readBody(request)).toString("utf8")) as { redirect_uris: string[] };
        return json(201, { client_id: "toolwire-test", redirect_uris: metadata.redirect_uris });
      }
      case "/authorize": {
        logins++;
        const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
        redirect.searchParams.set("code", `code-${logins}`);
        redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
        return response.writeHead(302, { location: redirect.href }).end();
      }
      case "/token": {
        await readBody(request);
        const token = `token-${tokens.size + 1}`;
        tokens.add(token);
        return json(200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
      }
      case "/mcp": {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
        if (bearer === undefined || !tokens.has(bearer)) {
          return json(
            401,
            { error: "invalid_token" },
            {
              "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
            },
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
      }
      default:
        return json(404, { error: "not_found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: `${origin}/mcp`,
    logins: () => logins,
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await upstream.close();
    },
  };
}
