// The login provider against a small authorization server on loopback: code flow with PKCE, refresh, the token file.
import { createHash } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auth, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectMcpServer } from "../connect-mcp-server.js";
import { createMcpOAuthProvider } from "./create-mcp-oauth-provider.js";
import { checkMcpAuthConfig, createMcpAuthProvider } from "./mcp-auth-config.js";
import { createMemoryOAuthStore, createOAuthFileStore } from "./oauth-store.js";

/** A protected resource and its authorization server in one loopback HTTP server; it records the token requests. */
interface FakeAuthorizationServer {
  readonly origin: string;
  readonly serverUrl: string;
  readonly tokenRequests: URLSearchParams[];
  readonly authorizeRequests: URLSearchParams[];
  close(): Promise<void>;
}

/** `sendsIss`: the server advertises RFC 9207 and adds `iss` to its redirects, as the SDK then requires. */
async function startFakeAuthorizationServer(options: { sendsIss?: boolean } = {}): Promise<FakeAuthorizationServer> {
  const tokenRequests: URLSearchParams[] = [];
  const authorizeRequests: URLSearchParams[] = [];
  let challenge = "";
  let issued = 0;
  const body = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = "";
      request.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      request.on("end", () => resolve(text));
    });
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", origin);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin], scopes_supported: ["tools"] });
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        ...(options.sendsIss === true ? { authorization_response_iss_parameter_supported: true } : {}),
      });
    }
    if (url.pathname === "/register" && request.method === "POST") {
      const metadata = JSON.parse(await body(request)) as { redirect_uris: string[] };
      return json(201, { client_id: "registered-client", redirect_uris: metadata.redirect_uris });
    }
    if (url.pathname === "/authorize") {
      authorizeRequests.push(url.searchParams);
      challenge = url.searchParams.get("code_challenge") ?? "";
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      redirect.searchParams.set("code", "the-code");
      redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
      if (options.sendsIss === true) redirect.searchParams.set("iss", origin);
      return response.writeHead(302, { location: redirect.href }).end();
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const params = new URLSearchParams(await body(request));
      tokenRequests.push(params);
      issued++;
      if (params.get("grant_type") === "authorization_code") {
        const verifier = params.get("code_verifier") ?? "";
        if (createHash("sha256").update(verifier).digest("base64url") !== challenge) {
          return json(400, { error: "invalid_grant", error_description: "PKCE verifier does not match" });
        }
        return json(200, {
          access_token: `access-${issued}`,
          refresh_token: "refresh-1",
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      // A refresh answer without a new refresh token: the old one stays valid.
      return json(200, { access_token: `access-${issued}`, token_type: "Bearer", expires_in: 3600 });
    }
    if (url.pathname === "/mcp") {
      return json(
        401,
        { error: "invalid_token" },
        {
          "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    serverUrl: `${origin}/mcp`,
    tokenRequests,
    authorizeRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dir: string;
let fake: FakeAuthorizationServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-oauth-provider-"));
  fake = await startFakeAuthorizationServer();
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe("createMcpOAuthProvider", () => {
  it("logs in through the loopback redirect (PKCE, resource indicator) and stores the tokens in a 0600 file", async () => {
    const shown: URL[] = [];
    const provider = createMcpOAuthProvider({
      serverUrl: fake.serverUrl,
      storeDir: dir,
      authorization: {
        kind: "loopback",
        timeoutMs: 5_000,
        onAuthorizationUrl: async (url) => {
          shown.push(url);
          await fetch(url); // the authorization server approves at once and redirects to the listener
        },
      },
    });
    await provider.prepare();
    expect(await auth(provider, { serverUrl: fake.serverUrl })).toBe("REDIRECT");
    const params = await provider.authorizePending();
    expect(await auth(provider, { serverUrl: fake.serverUrl, authorizationCode: params.get("code") ?? "" })).toBe(
      "AUTHORIZED",
    );
    const asked = fake.authorizeRequests[0] as URLSearchParams;
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("resource")).toBe(fake.serverUrl);
    expect(asked.get("scope")).toBe("tools");
    expect(asked.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(fake.tokenRequests[0]?.get("resource")).toBe(fake.serverUrl);
    expect(shown).toHaveLength(1);
    expect((await stat(provider.storeLocation)).mode & 0o777).toBe(0o600);
    const stored = await createOAuthFileStore({ serverUrl: fake.serverUrl, dir }).load();
    expect(stored.tokens).toMatchObject({ access_token: "access-1", refresh_token: "refresh-1" });
    expect(stored.clients).toMatchObject({ [fake.origin]: { client_id: "registered-client" } });
    expect(stored.redirectUrl).toBe(asked.get("redirect_uri"));
  });

  it("refreshes an expired access token with the stored refresh token and keeps the refresh token", async () => {
    const store = createOAuthFileStore({ serverUrl: fake.serverUrl, dir });
    await store.save({
      tokens: {
        access_token: "old",
        refresh_token: "refresh-1",
        token_type: "Bearer",
        expires_at: Date.now() - 1000,
        issuer: fake.origin,
      },
      clients: { [fake.origin]: { client_id: "registered-client", issuer: fake.origin } },
      redirectUrl: "http://127.0.0.1:9/callback",
    });
    const provider = createMcpOAuthProvider({
      serverUrl: fake.serverUrl,
      store,
      authorization: { kind: "loopback", onAuthorizationUrl: () => expect.fail("a refresh needs no login") },
    });
    await provider.prepare();
    // The transport's per-request read: an expired token is not sent, so the server's 401 starts the refresh.
    expect(await provider.tokens()).toBeUndefined();
    expect(await auth(provider, { serverUrl: fake.serverUrl })).toBe("AUTHORIZED");
    expect(fake.tokenRequests.map((params) => params.get("grant_type"))).toEqual(["refresh_token"]);
    expect(fake.tokenRequests[0]?.get("refresh_token")).toBe("refresh-1");
    const stored = await store.load();
    expect(stored.tokens).toMatchObject({ access_token: "access-1", refresh_token: "refresh-1" });
    expect(stored.tokens?.expires_at).toBeGreaterThan(Date.now());
    expect((await provider.tokens())?.access_token).toBe("access-1");
  });

  it("a callback authorization with another state than the request is refused", async () => {
    const provider = createMcpOAuthProvider({
      serverUrl: fake.serverUrl,
      storeDir: dir,
      authorization: {
        kind: "callback",
        redirectUrl: "https://app.example/callback",
        authorize: async () => new URLSearchParams({ code: "c", state: "not-the-one" }),
      },
    });
    await provider.prepare();
    expect(await auth(provider, { serverUrl: fake.serverUrl })).toBe("REDIRECT");
    await expect(provider.authorizePending()).rejects.toMatchObject({ code: "authorization-failed" });
  });

  it("a callback that answers with the redirect URL as text: its code, state and iss are read (RFC 9207)", async () => {
    const issuing = await startFakeAuthorizationServer({ sendsIss: true });
    try {
      const provider = createMcpOAuthProvider({
        serverUrl: issuing.serverUrl,
        storeDir: dir,
        authorization: {
          kind: "callback",
          redirectUrl: "https://app.example/callback",
          // The program's own web callback saw the redirect and hands over its URL as text.
          authorize: async (url) => (await fetch(url, { redirect: "manual" })).headers.get("location") ?? "",
        },
      });
      await provider.prepare();
      expect(await auth(provider, { serverUrl: issuing.serverUrl })).toBe("REDIRECT");
      const params = await provider.authorizePending();
      expect(params.get("code")).toBe("the-code");
      expect(params.get("iss")).toBe(issuing.origin);
      // What the bridge does next: the SDK checks iss against the server's issuer and exchanges the code.
      await new StreamableHTTPClientTransport(new URL(issuing.serverUrl), { authProvider: provider }).finishAuth(
        params,
      );
      expect(issuing.tokenRequests.map((request) => request.get("code"))).toEqual(["the-code"]);
      expect((await provider.tokens())?.access_token).toBe("access-1");
    } finally {
      await issuing.close();
    }
  });

  it("a callback that answers with a bare code: the string is the code, even one that parses as a URL", async () => {
    for (const code of ["the-code", "urn:codes:the-code", "https://codes.example/the-code?x=1"]) {
      const provider = createMcpOAuthProvider({
        serverUrl: fake.serverUrl,
        storeDir: dir,
        authorization: { kind: "callback", redirectUrl: "https://app.example/callback", authorize: async () => code },
      });
      await provider.prepare();
      expect(await auth(provider, { serverUrl: fake.serverUrl })).toBe("REDIRECT");
      expect([...(await provider.authorizePending()).entries()]).toEqual([["code", code]]);
    }
  });

  it("gives the stored tokens only for the authorization server that issued them (SEP-2352)", async () => {
    const tokens = { access_token: "a", token_type: "Bearer", issuer: "https://as-one.example" };
    const provider = createMcpOAuthProvider({
      serverUrl: fake.serverUrl,
      store: createMemoryOAuthStore({ tokens }),
      authorization: { kind: "callback", redirectUrl: "http://127.0.0.1:9/callback", authorize: async () => "code" },
    });
    await provider.prepare();
    expect(await provider.tokens({ issuer: "https://as-two.example" })).toBeUndefined();
    expect((await provider.tokens({ issuer: "https://as-one.example/" }))?.access_token).toBe("a");
    // The per-request read for the resource server itself has no issuer to compare.
    expect((await provider.tokens())?.access_token).toBe("a");
  });

  it("refuses a client metadata URL that is not https", () => {
    expect(() =>
      createMcpOAuthProvider({ serverUrl: fake.serverUrl, clientMetadataUrl: "http://toolwire.dev/client.json" }),
    ).toThrow(expect.objectContaining({ code: "invalid-oauth-config" }));
  });
});

describe("connectMcpServer and OAuth", () => {
  it("a server that answers 401 and no auth configured: mcp-unauthorized saying what to add", async () => {
    await expect(
      connectMcpServer({ id: "remote", url: fake.serverUrl }, { connectTimeoutMs: 5_000 }),
    ).rejects.toMatchObject({
      name: "McpConnectionError",
      code: "mcp-unauthorized",
      message: expect.stringContaining('give it an "auth" (for example { "type": "oauth" })'),
    });
  });

  it("a login nobody finishes: mcp-unauthorized naming the timeout, after the URL was shown", async () => {
    const shown: string[] = [];
    const provider = createMcpOAuthProvider({
      serverUrl: fake.serverUrl,
      storeDir: dir,
      authorization: { kind: "loopback", timeoutMs: 100, onAuthorizationUrl: (url) => void shown.push(url.origin) },
    });
    await expect(
      connectMcpServer({ id: "remote", url: fake.serverUrl }, { authProvider: provider, connectTimeoutMs: 5_000 }),
    ).rejects.toMatchObject({
      code: "mcp-unauthorized",
      message: expect.stringMatching(/^MCP server remote: No authorization arrived/),
    });
    expect(shown).toEqual([fake.origin]);
  });

  it("an auth config naming an unset variable is invalid-mcp-config", async () => {
    await expect(
      connectMcpServer({
        id: "remote",
        url: fake.serverUrl,
        auth: { type: "bearer", tokenEnv: "TOOLWIRE_TEST_UNSET_TOKEN" },
      }),
    ).rejects.toMatchObject({
      code: "invalid-mcp-config",
      message: expect.stringContaining("TOOLWIRE_TEST_UNSET_TOKEN"),
    });
  });
});

describe("checkMcpAuthConfig and createMcpAuthProvider", () => {
  it("names the bad field", () => {
    expect(() => checkMcpAuthConfig("s", { type: "client_credentials", clientId: "c" })).toThrow(
      "MCP server s: auth needs exactly one of clientSecretEnv or privateKeyEnv",
    );
    expect(() => checkMcpAuthConfig("s", { type: "oauth", clientSecret: "literal" })).toThrow(
      "MCP server s: auth.clientSecret is not an option of type oauth",
    );
  });

  it("reads secrets from the named variables, and says which one is missing", () => {
    const server = {
      id: "s",
      url: fake.serverUrl,
      auth: { type: "client_credentials", clientId: "job", clientSecretEnv: "JOB_SECRET", issuer: fake.origin },
    } as const;
    expect(() => createMcpAuthProvider(server, { env: {} })).toThrow(
      expect.objectContaining({ code: "missing-client-secret", message: expect.stringContaining("JOB_SECRET") }),
    );
    const provider = createMcpAuthProvider(server, { env: { JOB_SECRET: "s3cret" } }) as {
      clientInformation(): { client_id: string; client_secret?: string };
    };
    expect(provider.clientInformation()).toMatchObject({ client_id: "job", client_secret: "s3cret" });
  });
});
