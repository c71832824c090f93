// The gateway's authenticator: configured tokens, OAuth access tokens against a local and a loopback JWKS, the
// challenges of refusals, the metadata document, and token resolution from the environment.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AuthOutcome, createGatewayAuthenticator, resolveServeTokens } from "./authenticate.js";
import type { GatewayAuthOptions, ServeTokenConfig } from "./gateway-auth-options.js";

const RESOURCE = "http://127.0.0.1:8080/mcp";
const METADATA_URL = "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp";
const ISSUER = "https://as.example";
const ALICE = "tw_alice_0123456789abcdef";
const BOB = "tw_bob_fedcba9876543210";
const TOKENS: ServeTokenConfig[] = [
  { token: ALICE, principal: "alice", policy: [{ label: "alice", deny: ["bash"] }] },
  { token: BOB, principal: "bob" },
];

interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
  readonly alg: "RS256" | "ES256";
  readonly kid: string;
}
let rsa: SigningKey;
let ec: SigningKey;
/** A key the authorization server never published. */
let stranger: SigningKey;

async function makeKey(alg: "RS256" | "ES256", kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { privateKey, alg, kid, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

beforeAll(async () => {
  [rsa, ec, stranger] = await Promise.all([
    makeKey("RS256", "rs-1"),
    makeKey("ES256", "ec-1"),
    makeKey("RS256", "rs-1"),
  ]);
});

const jwks = () => ({ keys: [rsa.jwk, ec.jwk] });

/** A JWT as the authorization server would sign it; `claims` override the defaults. */
function sign(
  claims: JWTPayload = {},
  options: { key?: SigningKey; kid?: string; expiresIn?: string | number | null; typ?: string | null } = {},
): Promise<string> {
  const key = options.key ?? rsa;
  const defaults = { iss: ISSUER, aud: RESOURCE, sub: "user-42", scope: "tools:call tools:list" };
  const typ = options.typ === undefined ? { typ: "at+jwt" } : options.typ === null ? {} : { typ: options.typ };
  const jwt = new SignJWT({ ...defaults, ...claims })
    .setProtectedHeader({ alg: key.alg, kid: options.kid ?? key.kid, ...typ })
    .setIssuedAt();
  if (options.expiresIn !== null) jwt.setExpirationTime(options.expiresIn ?? "5m");
  return jwt.sign(key.privateKey);
}

function oauthAuthenticator(oauth: Partial<NonNullable<GatewayAuthOptions["oauth"]>> = {}, tokens = TOKENS) {
  return createGatewayAuthenticator(
    { tokens, oauth: { issuer: ISSUER, jwks: jwks(), scopes: ["tools:call"], ...oauth } },
    { resourceUrl: RESOURCE },
  );
}

function refusal(outcome: AuthOutcome) {
  if (outcome.ok) throw new Error(`expected a refusal, got principal ${outcome.principal.id}`);
  return outcome;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("createGatewayAuthenticator with configured tokens", () => {
  const authenticator = createGatewayAuthenticator({ tokens: TOKENS }, { resourceUrl: RESOURCE });

  it("lets in a configured token as its principal, under its policy layers", async () => {
    expect(authenticator.mode).toBe("tokens");
    expect(await authenticator.authenticate(`Bearer ${ALICE}`)).toEqual({
      ok: true,
      principal: { id: "alice", via: "token", policy: [{ label: "alice", deny: ["bash"] }], scopes: [] },
    });
    expect(await authenticator.authenticate(`Bearer ${BOB}`)).toMatchObject({
      ok: true,
      principal: { id: "bob", policy: [] },
    });
  });

  it("reads the scheme case-insensitively and around surrounding whitespace", async () => {
    for (const header of [`bearer ${ALICE}`, `BEARER ${ALICE}`, `  Bearer \t ${ALICE}  `]) {
      expect(await authenticator.authenticate(header)).toMatchObject({ ok: true, principal: { id: "alice" } });
    }
  });

  it("answers a request without credentials with 401 and a challenge that has no error attribute", async () => {
    for (const header of [undefined, "", "   "]) {
      const outcome = refusal(await authenticator.authenticate(header));
      expect(outcome).toMatchObject({ status: 401, error: "invalid_request" });
      expect(outcome.message).toBe("Unauthorized: this server needs a credential: send Authorization: Bearer <token>");
      expect(outcome.headers).toEqual({ "WWW-Authenticate": `Bearer resource_metadata="${METADATA_URL}"` });
    }
  });

  it("treats another scheme as no credentials (RFC 6750 §3.1), without echoing it", async () => {
    const credentials = Buffer.from(`alice:${ALICE}`).toString("base64");
    const outcome = refusal(await authenticator.authenticate(`Basic ${credentials}`));
    expect(outcome.status).toBe(401);
    expect(outcome.headers["WWW-Authenticate"]).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
    expect(outcome.message).toContain("only Bearer credentials");
    expect(outcome.message).not.toContain(credentials);
  });

  it("refuses an unknown token with invalid_token, never echoing it", async () => {
    const outcome = refusal(await authenticator.authenticate(`Bearer ${ALICE}x`));
    expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
    expect(outcome.headers["WWW-Authenticate"]).toBe(
      `Bearer error="invalid_token", error_description="the token is not one this server knows", resource_metadata="${METADATA_URL}"`,
    );
    expect(JSON.stringify(outcome)).not.toContain(ALICE);
  });

  it("refuses a Bearer header that holds no single token with invalid_request", async () => {
    for (const header of ["Bearer", "Bearer   ", `Bearer ${ALICE} ${BOB}`, `Bearer ${ALICE}\u0000`, "Bearer tökén"]) {
      const outcome = refusal(await authenticator.authenticate(header));
      expect(outcome).toMatchObject({ status: 401, error: "invalid_request" });
      expect(outcome.headers["WWW-Authenticate"]).toMatch(/^Bearer error="invalid_request", error_description="/);
      expect(JSON.stringify(outcome)).not.toContain(ALICE);
    }
  });

  it("refuses a header over 8 KB before reading it, even when it ends in a configured token", async () => {
    const outcome = refusal(await authenticator.authenticate(`Bearer ${ALICE}${" ".repeat(9_000)}`));
    expect(outcome).toMatchObject({ status: 401, error: "invalid_request" });
    expect(outcome.message).toBe("Unauthorized: the Authorization header is longer than 8192 characters");
  });

  it("refuses a JWT when no oauth is configured", async () => {
    const outcome = refusal(await authenticator.authenticate(`Bearer ${await sign()}`));
    expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
  });

  it("never throws on a header that is not a string", async () => {
    const outcome = refusal(await authenticator.authenticate(["Bearer x", "Bearer y"] as unknown as string));
    expect(outcome).toMatchObject({ status: 401, error: "invalid_request" });
  });
});

describe("createGatewayAuthenticator with OAuth access tokens", () => {
  it("lets in a good RS256 token as its subject with its scopes", async () => {
    const authenticator = oauthAuthenticator();
    expect(authenticator.mode).toBe("tokens+oauth");
    expect(await authenticator.authenticate(`Bearer ${await sign()}`)).toEqual({
      ok: true,
      principal: { id: "user-42", via: "oauth", policy: [], scopes: ["tools:call", "tools:list"] },
    });
  });

  it("lets in a good ES256 token whose scopes are an scp list", async () => {
    const token = await sign({ scope: undefined, scp: ["tools:call"] }, { key: ec });
    expect(await oauthAuthenticator().authenticate(`Bearer ${token}`)).toMatchObject({
      ok: true,
      principal: { id: "user-42", scopes: ["tools:call"] },
    });
  });

  it("names a token without sub by its client_id", async () => {
    const jwt = new SignJWT({ client_id: "ci-robot", scope: "tools:call" })
      .setProtectedHeader({ alg: "RS256", kid: rsa.kid, typ: "at+jwt" })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setExpirationTime("5m");
    const outcome = await oauthAuthenticator().authenticate(`Bearer ${await jwt.sign(rsa.privateKey)}`);
    expect(outcome).toMatchObject({ ok: true, principal: { id: "ci-robot", via: "oauth" } });
  });

  it("accepts an audience list that holds the resource, and a configured audience instead of the resource", async () => {
    expect(await oauthAuthenticator().authenticate(`Bearer ${await sign({ aud: ["other", RESOURCE] })}`)).toMatchObject(
      {
        ok: true,
      },
    );
    const custom = oauthAuthenticator({ audience: "api://toolwire" });
    expect(await custom.authenticate(`Bearer ${await sign({ aud: "api://toolwire" })}`)).toMatchObject({ ok: true });
    expect(refusal(await custom.authenticate(`Bearer ${await sign()}`)).message).toContain("another resource");
  });

  it("refuses a token signed by another key under a published key id", async () => {
    const outcome = refusal(await oauthAuthenticator().authenticate(`Bearer ${await sign({}, { key: stranger })}`));
    expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
    expect(outcome.message).toBe("Unauthorized: the access token's signature does not verify");
  });

  it("refuses a token whose key id the authorization server does not publish", async () => {
    const outcome = refusal(await oauthAuthenticator().authenticate(`Bearer ${await sign({}, { kid: "rs-2" })}`));
    expect(outcome.message).toBe("Unauthorized: no key of the authorization server matches the access token");
  });

  it("refuses an expired token, with the error, its description and the scope in the challenge", async () => {
    const token = await sign(
      { iat: Math.floor(Date.now() / 1000) - 7200 },
      { expiresIn: Math.floor(Date.now() / 1000) - 3600 },
    );
    const outcome = refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`));
    expect(outcome).toMatchObject({
      status: 401,
      error: "invalid_token",
      message: "Unauthorized: the access token has expired",
    });
    expect(outcome.headers["WWW-Authenticate"]).toBe(
      `Bearer error="invalid_token", error_description="the access token has expired", scope="tools:call", resource_metadata="${METADATA_URL}"`,
    );
  });

  it("refuses a token that is not valid yet", async () => {
    const token = await sign({ nbf: Math.floor(Date.now() / 1000) + 3600 });
    expect(refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`)).message).toBe(
      "Unauthorized: the access token is not valid yet",
    );
  });

  it("refuses a token without an expiry time", async () => {
    const token = await sign({}, { expiresIn: null });
    expect(refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`)).message).toBe(
      "Unauthorized: the access token has no expiry time",
    );
  });

  it("refuses a token of another issuer", async () => {
    const token = await sign({ iss: "https://evil.example" });
    expect(refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`)).message).toBe(
      "Unauthorized: the access token was issued by another authorization server",
    );
  });

  it("refuses a token meant for another resource", async () => {
    const token = await sign({ aud: "http://127.0.0.1:9999/mcp" });
    expect(refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`)).message).toBe(
      "Unauthorized: the access token is meant for another resource",
    );
  });

  it("answers a token missing a required scope with 403 insufficient_scope naming the scopes needed", async () => {
    const authenticator = oauthAuthenticator({ scopes: ["tools:call", "tools:admin"] });
    const outcome = refusal(await authenticator.authenticate(`Bearer ${await sign()}`));
    expect(outcome).toMatchObject({
      status: 403,
      error: "insufficient_scope",
      message: "Forbidden: the access token lacks the scope tools:admin",
    });
    expect(outcome.headers["WWW-Authenticate"]).toBe(
      `Bearer error="insufficient_scope", error_description="the access token lacks the scope tools:admin", scope="tools:call tools:admin", resource_metadata="${METADATA_URL}"`,
    );
  });

  it("refuses an unsigned token (alg none)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: ISSUER, aud: RESOURCE, sub: "user-42", exp: now + 300, scope: "tools:call" };
    const token = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`;
    const outcome = refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`));
    expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
    expect(outcome.message).toBe("Unauthorized: the access token's signature algorithm is not allowed");
  });

  it("refuses an HMAC token, whose key would be a secret shared with clients", async () => {
    const token = await new SignJWT({ scope: "tools:call" })
      .setProtectedHeader({ alg: "HS256", kid: rsa.kid })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setSubject("user-42")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a secret of thirty-two bytes....."));
    expect(refusal(await oauthAuthenticator().authenticate(`Bearer ${token}`)).message).toBe(
      "Unauthorized: the access token's signature algorithm is not allowed",
    );
  });

  it("refuses garbage and JWT-shaped garbage with invalid_token", async () => {
    const authenticator = oauthAuthenticator();
    for (const token of ["opaque-token", "a.b.c", `${base64url({ alg: "RS256" })}.e30.AAAA`, "e30.e30.", "...."]) {
      const outcome = refusal(await authenticator.authenticate(`Bearer ${token}`));
      expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
    }
  });

  it("refuses a token typed JWT or not typed at all, as RFC 9068 asks, saying the typ it needs", async () => {
    const authenticator = oauthAuthenticator();
    for (const typ of ["JWT", null]) {
      const outcome = refusal(await authenticator.authenticate(`Bearer ${await sign({}, { typ })}`));
      expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
      expect(outcome.message).toBe(
        "Unauthorized: the token is not typed as an access token: its typ header must be at+jwt (RFC 9068)",
      );
    }
  });

  it("takes at+jwt in any case and with application/ before it", async () => {
    const authenticator = oauthAuthenticator();
    for (const typ of ["AT+JWT", "application/at+jwt", "Application/At+JWT"]) {
      expect(await authenticator.authenticate(`Bearer ${await sign({}, { typ })}`), typ).toMatchObject({ ok: true });
    }
  });

  it("takes the types allowedTypes lists instead, and any type or none with allowedTypes any", async () => {
    const listed = oauthAuthenticator({ allowedTypes: ["at+jwt", "JWT"] });
    expect(await listed.authenticate(`Bearer ${await sign({}, { typ: "jwt" })}`)).toMatchObject({ ok: true });
    expect(refusal(await listed.authenticate(`Bearer ${await sign({}, { typ: null })}`)).message).toContain(
      "its typ header must be at+jwt or jwt",
    );
    const any = oauthAuthenticator({ allowedTypes: "any" });
    for (const typ of ["JWT", null, "whatever"]) {
      expect(await any.authenticate(`Bearer ${await sign({}, { typ })}`), String(typ)).toMatchObject({ ok: true });
    }
  });

  it("lets in a configured token before trying it as a JWT", async () => {
    const jwtToken = await sign({}, { key: stranger });
    const authenticator = oauthAuthenticator({}, [{ token: jwtToken, principal: "legacy" }]);
    expect(await authenticator.authenticate(`Bearer ${jwtToken}`)).toMatchObject({
      ok: true,
      principal: { id: "legacy", via: "token" },
    });
  });

  it("with only oauth, lets in access tokens and refuses anything else", async () => {
    const authenticator = createGatewayAuthenticator(
      { oauth: { issuer: ISSUER, jwks: jwks() } },
      { resourceUrl: RESOURCE },
    );
    expect(authenticator.mode).toBe("oauth");
    expect(await authenticator.authenticate(`Bearer ${await sign({ scope: undefined })}`)).toMatchObject({
      ok: true,
      principal: { scopes: [] },
    });
    expect(refusal(await authenticator.authenticate(`Bearer ${ALICE}`)).headers["WWW-Authenticate"]).not.toContain(
      "scope=",
    );
  });
});

describe("createGatewayAuthenticator with a remote JWKS", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  }

  it("fetches the keys from jwksUri once and checks tokens with them", async () => {
    let fetches = 0;
    const jwksUri = await serve((_request, response) => {
      fetches += 1;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(jwks()));
    });
    const authenticator = oauthAuthenticator({ jwks: undefined, jwksUri });
    expect(await authenticator.authenticate(`Bearer ${await sign()}`)).toMatchObject({ ok: true });
    expect(await authenticator.authenticate(`Bearer ${await sign({}, { key: ec })}`)).toMatchObject({ ok: true });
    expect(refusal(await authenticator.authenticate(`Bearer ${await sign({}, { key: stranger })}`)).message).toContain(
      "signature does not verify",
    );
    expect(fetches).toBe(1);
  });

  it("refuses with 401 saying the keys could not be fetched when the key server fails", async () => {
    const jwksUri = await serve((_request, response) => response.writeHead(500).end("down"));
    const outcome = refusal(
      await oauthAuthenticator({ jwks: undefined, jwksUri }).authenticate(`Bearer ${await sign()}`),
    );
    expect(outcome).toMatchObject({
      status: 401,
      error: "invalid_token",
      message: "Unauthorized: the authorization server's keys could not be fetched, so the token could not be checked",
    });
  });

  it("refuses within the timeout when the key server never answers", async () => {
    const jwksUri = await serve(() => {
      // never answers
    });
    const authenticator = createGatewayAuthenticator(
      { oauth: { issuer: ISSUER, jwksUri } },
      { resourceUrl: RESOURCE, jwksTimeoutMs: 200 },
    );
    const started = performance.now();
    const outcome = refusal(await authenticator.authenticate(`Bearer ${await sign()}`));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outcome.message).toContain("keys could not be fetched");
  });

  it("refuses saying the keys could not be fetched when nothing listens at jwksUri", async () => {
    const jwksUri = await serve(() => {});
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    const outcome = refusal(
      await oauthAuthenticator({ jwks: undefined, jwksUri }).authenticate(`Bearer ${await sign()}`),
    );
    expect(outcome.message).toContain("keys could not be fetched");
  });

  /** A key that matches no token: a real-looking EC public key under its own id, padded to make a set big. */
  const junkKey = (index: number, pad = 0) => ({
    kty: "EC",
    crv: "P-256",
    kid: `junk-${index}`,
    use: "sig",
    x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
    y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    ...(pad > 0 ? { note: "x".repeat(pad) } : {}),
  });

  it.each([
    ["without saying its length", false],
    ["saying its length", true],
  ])(
    "stops reading a 50 MB key set (%s) past 1 MiB and refuses the token as keys unavailable",
    async (_name, declared) => {
      const total = 50 * 1024 * 1024;
      const chunk = Buffer.from(`${JSON.stringify(junkKey(0))},`.repeat(100));
      let sent = 0;
      const jwksUri = await serve((_request, response) => {
        response.writeHead(200, {
          "content-type": "application/json",
          ...(declared ? { "content-length": String(total) } : {}),
        });
        response.write('{"keys":[');
        // Written as the client reads, never held whole: the server stops when the client hangs up.
        const more = () => {
          while (sent < total && !response.destroyed) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once("drain", more);
          }
        };
        more();
      });
      const authenticator = oauthAuthenticator({ jwks: undefined, jwksUri });
      const outcome = refusal(await authenticator.authenticate(`Bearer ${await sign()}`));
      expect(outcome).toMatchObject({ status: 401, error: "invalid_token" });
      expect(outcome.message).toMatch(
        declared
          ? /^Unauthorized: the authorization server's keys could not be fetched \(its key set is 52428800 bytes, over the 1048576 allowed\), so the token could not be checked$/
          : /^Unauthorized: the authorization server's keys could not be fetched \(its key set is over the 1048576 bytes allowed\), so the token could not be checked$/,
      );
      // The download stopped near the limit: what the sockets' buffers took besides is a few MB at most.
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    },
  );

  it("refuses a key set of more than 100 keys whole, even with the token's key in it, and takes a good one later", async () => {
    let keys: object[] = [rsa.jwk, ec.jwk, ...Array.from({ length: 99 }, (_, index) => junkKey(index))];
    const jwksUri = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys }));
    });
    const authenticator = oauthAuthenticator({ jwks: undefined, jwksUri });
    const outcome = refusal(await authenticator.authenticate(`Bearer ${await sign()}`));
    expect(outcome.status).toBe(401);
    expect(outcome.message).toContain("(its key set has 101 keys, over the 100 allowed)");
    keys = keys.slice(0, 100);
    expect(await authenticator.authenticate(`Bearer ${await sign()}`)).toMatchObject({ ok: true });
  });

  it("takes a key set of 100 keys just under 1 MiB", async () => {
    const keys: object[] = [rsa.jwk, ec.jwk, ...Array.from({ length: 98 }, (_, index) => junkKey(index, 10_000))];
    const unpadded = JSON.stringify({ keys }).length;
    keys[2] = junkKey(0, 10_000 + 1024 * 1024 - unpadded - 10);
    const body = JSON.stringify({ keys });
    expect(body.length).toBeGreaterThan(1024 * 1024 - 20);
    expect(body.length).toBeLessThanOrEqual(1024 * 1024);
    const jwksUri = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    expect(await oauthAuthenticator({ jwks: undefined, jwksUri }).authenticate(`Bearer ${await sign()}`)).toMatchObject(
      { ok: true },
    );
  });

  it("does not fetch keys for a token whose algorithm is refused anyway", async () => {
    let fetches = 0;
    const jwksUri = await serve((_request, response) => {
      fetches += 1;
      response.writeHead(200).end(JSON.stringify(jwks()));
    });
    const token = `${base64url({ alg: "none" })}.${base64url({ iss: ISSUER })}.`;
    await oauthAuthenticator({ jwks: undefined, jwksUri }).authenticate(`Bearer ${token}`);
    expect(fetches).toBe(0);
  });
});

describe("the protected resource metadata", () => {
  it("is at the well-known path inserted before /mcp, with the bare path answered too", () => {
    const authenticator = oauthAuthenticator({ scopes: ["tools:call", "tools:list"] });
    expect(authenticator.metadataUrl).toBe(METADATA_URL);
    expect(authenticator.metadataPaths).toEqual([
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]);
    expect(authenticator.metadata()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ["header"],
      scopes_supported: ["tools:call", "tools:list"],
    });
  });

  it("names no authorization server with tokens only, and sits at the bare path for a resource at the root", () => {
    const authenticator = createGatewayAuthenticator({ tokens: TOKENS }, { resourceUrl: "https://gw.example" });
    expect(authenticator.metadataUrl).toBe("https://gw.example/.well-known/oauth-protected-resource");
    expect(authenticator.metadataPaths).toEqual(["/.well-known/oauth-protected-resource"]);
    expect(authenticator.metadata()).toEqual({ resource: "https://gw.example", bearer_methods_supported: ["header"] });
  });
});

describe("createGatewayAuthenticator refuses options it cannot use", () => {
  const cases: [string, GatewayAuthOptions, string, RegExp][] = [
    ["neither tokens nor oauth", {}, "invalid-serve-auth", /needs tokens, oauth or both/],
    ["an empty token list", { tokens: [] }, "invalid-serve-auth", /needs tokens, oauth or both/],
    [
      "an env: token not resolved",
      { tokens: [{ token: "env:X", principal: "a" }] },
      "invalid-serve-auth",
      /resolveServeTokens/,
    ],
    ["an empty principal", { tokens: [{ token: ALICE, principal: " " }] }, "invalid-serve-auth", /non-empty principal/],
    ["a token with a space", { tokens: [{ token: "a b", principal: "a" }] }, "invalid-serve-auth", /cannot be sent/],
    [
      "two entries with one token",
      { tokens: [TOKENS[0]!, { token: ALICE, principal: "carol" }] },
      "invalid-serve-auth",
      /"alice".*"carol".*same token/,
    ],
    ["oauth without keys", { oauth: { issuer: ISSUER } }, "invalid-serve-auth", /exactly one of jwksUri/],
    ["oauth without issuer", { oauth: { issuer: "", jwks: { keys: [] } } }, "invalid-serve-auth", /issuer/],
    [
      "a jwksUri over http to another host",
      { oauth: { issuer: ISSUER, jwksUri: "http://as.example/jwks" } },
      "invalid-serve-auth",
      /https URL/,
    ],
    [
      "a key set that is not one",
      { oauth: { issuer: ISSUER, jwks: { keys: "no" as never } } },
      "invalid-serve-auth",
      /JSON Web Key Set/,
    ],
    [
      "allowedTypes that is neither any nor a list of types",
      { oauth: { issuer: ISSUER, jwks: { keys: [] }, allowedTypes: [] } },
      "invalid-serve-auth",
      /allowedTypes must be "any" or a list of typ values/,
    ],
    [
      "a scope with a quote",
      { oauth: { issuer: ISSUER, jwks: { keys: [] }, scopes: ['a"b'] } },
      "invalid-serve-auth",
      /not a scope name/,
    ],
  ];
  it.each(cases)("%s", (_name, options, code, message) => {
    let thrown: unknown;
    try {
      createGatewayAuthenticator(options, { resourceUrl: RESOURCE });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: "GatewayError", code, message: expect.stringMatching(message) });
    expect((thrown as Error).message).not.toContain(ALICE);
  });

  it("refuses a resource URL that is not an http(s) URL with invalid-serve-options", () => {
    for (const resourceUrl of ["not a url", "ftp://gw.example/mcp", "http://gw.example/mcp#x"]) {
      expect(() => createGatewayAuthenticator({ tokens: TOKENS }, { resourceUrl })).toThrow(
        expect.objectContaining({ code: "invalid-serve-options" }),
      );
    }
  });
});

describe("resolveServeTokens", () => {
  it("replaces env:NAME tokens with the variable's value and keeps the rest as given", () => {
    const resolved = resolveServeTokens(
      [
        { token: "env:ALICE_TOKEN", principal: "alice", policy: [{ label: "alice", allow: ["read"] }] },
        { token: BOB, principal: "bob" },
      ],
      { ALICE_TOKEN: ALICE },
    );
    expect(resolved).toEqual([
      { token: ALICE, principal: "alice", policy: [{ label: "alice", allow: ["read"] }] },
      { token: BOB, principal: "bob" },
    ]);
  });

  it("throws serve-token-unset naming the variable and the principal when the variable is unset or empty", () => {
    for (const [env, state] of [
      [{}, "unset"],
      [{ ALICE_TOKEN: "" }, "empty"],
    ] as const) {
      expect(() => resolveServeTokens([{ token: "env:ALICE_TOKEN", principal: "alice" }], env)).toThrow(
        expect.objectContaining({
          name: "GatewayError",
          code: "serve-token-unset",
          message: `serve.auth.tokens[0] (principal "alice") reads its token from the environment variable ALICE_TOKEN, which is ${state}`,
        }),
      );
    }
  });

  it("refuses two entries whose tokens are the same once resolved, without saying the token", () => {
    let thrown: unknown;
    try {
      resolveServeTokens(
        [
          { token: ALICE, principal: "alice" },
          { token: "env:T", principal: "carol" },
        ],
        { T: ALICE },
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "invalid-serve-auth", message: expect.stringContaining("same token") });
    expect((thrown as Error).message).not.toContain(ALICE);
  });

  it("refuses an empty principal and an env: reference without a variable name", () => {
    expect(() => resolveServeTokens([{ token: ALICE, principal: "" }], {})).toThrow(
      expect.objectContaining({ code: "invalid-serve-auth" }),
    );
    expect(() => resolveServeTokens([{ token: "env:", principal: "a" }], {})).toThrow(
      expect.objectContaining({
        code: "invalid-serve-auth",
        message: expect.stringContaining("not an environment variable name"),
      }),
    );
  });

  it("refuses an env value that cannot be sent as a Bearer token, without saying the value", () => {
    let thrown: unknown;
    try {
      resolveServeTokens([{ token: "env:T", principal: "a" }], { T: "secret with spaces\n" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "invalid-serve-auth", message: expect.stringContaining("cannot be sent") });
    expect((thrown as Error).message).not.toContain("secret");
  });
});

describe("authenticate on arbitrary headers", () => {
  const base64urlPart = fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/);
  const header = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary", maxLength: 60 }),
    fc
      .constantFrom(ALICE, BOB, "Bearer", "bearer ", "Basic ")
      .chain((prefix) => fc.string().map((rest) => prefix + rest)),
    fc
      .tuple(fc.constantFrom("Bearer ", "bearer\t", " BEARER  "), fc.constantFrom(ALICE, BOB, ""), fc.string())
      .map(([scheme, token, rest]) => scheme + token + rest),
    fc.tuple(base64urlPart, base64urlPart, base64urlPart).map((parts) => `Bearer ${parts.join(".")}`),
  );

  it("never throws and lets in only a header whose one Bearer token is a configured token", async () => {
    const authenticator = oauthAuthenticator();
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        const outcome = await authenticator.authenticate(value);
        const token = value.length <= 8192 ? /^[ \t]*bearer[ \t]+([^ \t]+)[ \t]*$/i.exec(value)?.[1] : undefined;
        const expected = TOKENS.find((entry) => entry.token === token);
        if (expected === undefined) {
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) expect([401, 403]).toContain(outcome.status);
        } else {
          expect(outcome).toMatchObject({ ok: true, principal: { id: expected.principal, via: "token" } });
        }
      }),
      { numRuns: 300 },
    );
  });
});
