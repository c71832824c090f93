// DPoP in the OAuth client: a key made once and kept with the tokens, used where the authorization server offers it.
import { describe, expect, it } from "vitest";
import { createMcpOAuthProvider } from "./create-mcp-oauth-provider.js";
import { createMemoryOAuthStore, type OAuthStore } from "./oauth-store.js";

const SERVER = "http://127.0.0.1:1/mcp";
const AS = "http://127.0.0.1:2";

function providerOn(store: OAuthStore, dpop?: boolean) {
  return createMcpOAuthProvider({
    serverUrl: SERVER,
    store,
    authorization: { kind: "callback", redirectUrl: "http://127.0.0.1:3/callback", authorize: async () => "code" },
    ...(dpop === undefined ? {} : { dpop }),
  });
}

/** What the SDK saves before a token request: the authorization server and its metadata. */
function discovered(offers: string[] | undefined) {
  return {
    authorizationServerUrl: AS,
    authorizationServerMetadata: {
      issuer: AS,
      authorization_endpoint: `${AS}/authorize`,
      token_endpoint: `${AS}/token`,
      response_types_supported: ["code"],
      ...(offers === undefined ? {} : { dpop_signing_alg_values_supported: offers }),
    },
  };
}

/** The claims and header of a proof JWT, unverified (the conformance scenarios verify real ones). */
function readProof(proof: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header = "", claims = ""] = proof.split(".");
  const read = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
  return { header: read(header), claims: read(claims) };
}

describe("createMcpOAuthProvider dpop()", () => {
  it("where the authorization server offers ES256: one session, its key stored and used again by the next run", async () => {
    const store = createMemoryOAuthStore();
    const provider = providerOn(store);
    await provider.prepare();
    provider.saveDiscoveryState?.(discovered(["RS256", "ES256"]));
    const session = await provider.dpop?.();
    expect(session).toBeDefined();
    expect(await provider.dpop?.()).toBe(session);
    const kept = (await store.load()).dpopKey;
    expect(kept).toMatchObject({
      alg: "ES256",
      thumbprint: session?.thumbprint,
      publicJwk: { kty: "EC", crv: "P-256" },
    });
    expect(kept?.privateJwk).toHaveProperty("d");

    // The next run (a new provider on the same store), holding DPoP-bound tokens, proves with the same key.
    await store.save({ ...(await store.load()), tokens: { access_token: "at", token_type: "DPoP" } });
    const next = providerOn(store);
    await next.prepare();
    const again = await next.dpop?.();
    expect(again?.thumbprint).toBe(session?.thumbprint);
    const proof = readProof((await again?.buildProof({ htm: "post", htu: `${SERVER}?x=1`, accessToken: "at" })) ?? "");
    expect(proof.header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    expect(proof.claims).toMatchObject({ htm: "POST", htu: SERVER, ath: expect.any(String), jti: expect.any(String) });
  });

  it("none where the authorization server does not offer ES256, for Bearer tokens, or with dpop: false", async () => {
    for (const offers of [undefined, ["RS256"], "ES256" as never]) {
      const provider = providerOn(createMemoryOAuthStore({ tokens: { access_token: "at", token_type: "Bearer" } }));
      await provider.prepare();
      provider.saveDiscoveryState?.(discovered(offers));
      expect(await provider.dpop?.()).toBeUndefined();
    }
    const off = providerOn(createMemoryOAuthStore({ tokens: { access_token: "at", token_type: "DPoP" } }), false);
    await off.prepare();
    off.saveDiscoveryState?.(discovered(["ES256"]));
    expect(await off.dpop?.()).toBeUndefined();
  });

  it("logout forgets the key with the tokens: the next login makes a new one", async () => {
    const store = createMemoryOAuthStore();
    const provider = providerOn(store);
    await provider.prepare();
    provider.saveDiscoveryState?.(discovered(["ES256"]));
    const first = await provider.dpop?.();
    await provider.logout();
    expect((await store.load()).dpopKey).toBeUndefined();
    provider.saveDiscoveryState?.(discovered(["ES256"]));
    const second = await provider.dpop?.();
    expect(second?.thumbprint).not.toBe(first?.thumbprint);
  });
});
