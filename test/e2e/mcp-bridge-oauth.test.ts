// The bridge's OAuth client against a protected MCP server on loopback: an authorization server that moves (SEP-2352),
// and a login driven with a plain SDK OAuthClientProvider written the way a user writes one.
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentSession, createToolRegistry } from "../../src/index.js";
import {
  connectMcpServer,
  createMcpOAuthProvider,
  createMemoryOAuthStore,
  type McpConnection,
  type OAuthStore,
} from "../../src/mcp/api.js";
import { freePort } from "../support/free-port.js";
import { type ProtectedMcpServer, startProtectedMcpServer } from "./helpers/oauth-server.js";

const started: ProtectedMcpServer[] = [];
const connections: McpConnection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  for (const server of started.splice(0)) await server.close();
});

async function protectedServer(): Promise<ProtectedMcpServer> {
  const server = await startProtectedMcpServer();
  started.push(server);
  return server;
}

/**
 * Connects to `server` with toolwire's own OAuth provider, logging in through the loopback redirect (the test
 * authorization server approves at once); `clientId` is a client registered ahead.
 */
async function connectLoggedIn(
  server: ProtectedMcpServer,
  store: OAuthStore,
  clientId?: string,
): Promise<McpConnection> {
  const provider = createMcpOAuthProvider({
    serverUrl: server.url,
    ...(clientId === undefined ? {} : { clientId }),
    store,
    authorization: {
      kind: "loopback",
      timeoutMs: 20_000,
      onAuthorizationUrl: async (url) => void (await fetch(url)),
    },
  });
  const connection = await connectMcpServer(
    { id: "remote", url: server.url },
    { authProvider: provider, connectTimeoutMs: 30_000, timeoutMs: 30_000 },
  );
  connections.push(connection);
  return connection;
}

/** Calls the server's `add` through a session, as an agent would; resolves to the result's text and error flag. */
async function callAdd(connection: McpConnection, a: number, b: number): Promise<{ text: string; isError: boolean }> {
  const session = createAgentSession({
    registry: createToolRegistry({ extensions: [connection], disableBuiltInTools: true }),
  });
  const name = connection.tools.map((tool) => tool.descriptor.name).find((each) => each.endsWith("add")) ?? "";
  const result = await session.dispatch({ id: `call-${a}-${b}`, name, input: { a, b } });
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return { text, isError: result.is_error === true };
}

describe("an authorization server that moves (SEP-2352)", () => {
  it("the bridge discovers the new server, registers there and never shows it the old server's client", async () => {
    const server = await protectedServer();
    const store = createMemoryOAuthStore();
    const connection = await connectLoggedIn(server, store);
    expect(await callAdd(connection, 2, 3)).toEqual({ text: "5", isError: false });
    const before = server.authorizationServer();
    const oldClient = before.registered[0] as string;
    expect(before.registered).toHaveLength(1);

    const after = await server.moveAuthorizationServer();
    expect(await callAdd(connection, 4, 5)).toEqual({ text: "9", isError: false });
    expect(after.registered).toHaveLength(1);
    expect(after.clientIdsSeen.length).toBeGreaterThan(0);
    expect(after.clientIdsSeen).not.toContain(oldClient);
    expect(after.clientIdsSeen.every((id) => id === after.registered[0])).toBe(true);
    // The old server was not asked again, and each server's client is kept under its issuer.
    expect(before.registered).toHaveLength(1);
    const stored = await store.load();
    expect(Object.keys(stored.clients ?? {}).sort()).toEqual([before.origin, after.origin].sort());
    expect(stored.clients?.[after.origin]?.client_id).toBe(after.registered[0]);
    expect(stored.tokens?.issuer).toBe(after.origin);
  }, 60_000);

  it("a client id given ahead is not shown to the new server: the call fails saying which servers", async () => {
    const server = await protectedServer();
    const connection = await connectLoggedIn(server, createMemoryOAuthStore(), "registered-ahead");
    expect(await callAdd(connection, 1, 1)).toEqual({ text: "2", isError: false });
    const before = server.authorizationServer();
    const after = await server.moveAuthorizationServer();
    const result = await callAdd(connection, 1, 2);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`now names the authorization server ${after.origin}`);
    expect(result.text).toContain(`registered with ${before.origin}`);
    expect(after.clientIdsSeen).toEqual([]);
  }, 60_000);
});

/**
 * An `OAuthClientProvider` as a user of the SDK writes one: state in memory, a fixed loopback redirect URL, and
 * `redirectToAuthorization` that "opens the browser" (here a fetch: the test authorization server approves at once,
 * and the browser follows its redirect to the bridge's listener).
 */
class MyOAuthProvider implements OAuthClientProvider {
  readonly opened: URL[] = [];
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = "";
  #discovery: OAuthDiscoveryState | undefined;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "my agent",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state(): string {
    return crypto.randomUUID();
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.opened.push(url);
    await fetch(url);
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery;
  }
}

describe("a plain SDK OAuthClientProvider", () => {
  it("finishes an authorization code login through the bridge: redirect, code exchanged, request sent again", async () => {
    const server = await protectedServer();
    const provider = new MyOAuthProvider(`http://localhost:${await freePort()}/oauth/callback`);
    const connection = await connectMcpServer(
      { id: "remote", url: server.url },
      { authProvider: provider, connectTimeoutMs: 30_000, timeoutMs: 30_000 },
    );
    connections.push(connection);
    expect(await callAdd(connection, 20, 22)).toEqual({ text: "42", isError: false });
    expect(provider.opened).toHaveLength(1);
    expect(provider.opened[0]?.searchParams.get("redirect_uri")).toBe(provider.redirectUrl);
    expect(provider.tokens()?.access_token).toMatch(/^token-/);
    expect(server.logins()).toBe(1);
  }, 60_000);

  it("with a redirect URL the bridge cannot listen on, connecting rejects with mcp-unauthorized (no hang)", async () => {
    const server = await protectedServer();
    const provider = new MyOAuthProvider("https://agent.example/oauth/callback");
    provider.redirectToAuthorization = async (url: URL) => void provider.opened.push(url);
    await expect(
      connectMcpServer({ id: "remote", url: server.url }, { authProvider: provider, connectTimeoutMs: 30_000 }),
    ).rejects.toMatchObject({ name: "McpConnectionError", code: "mcp-unauthorized" });
    expect(provider.opened).toHaveLength(1);
  }, 60_000);
});
