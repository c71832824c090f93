// Checks an OAuth access token (a JWT) the way a resource server must: type, signature, issuer, audience, time, scopes.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { GatewayError } from "./errors.js";
import type { ServeOAuthConfig } from "./gateway-auth-options.js";

/**
 * What one access token turned out to be:
 * - `valid`: every check passed; `subject` is `sub` (else `client_id`), `scopes` what the token grants.
 * - `invalid`: it is not a token this server accepts (bad signature, unknown key, expired, for another issuer or
 *   audience, an algorithm not allowed, not a JWT); `description` says which without quoting the token.
 * - `insufficient-scope`: valid, but missing some required scopes (`missing`).
 * - `keys-unavailable`: the authorization server's keys could not be fetched in time, so nothing could be checked.
 */
export type AccessTokenCheck =
  | { readonly kind: "valid"; readonly subject: string; readonly scopes: readonly string[] }
  | { readonly kind: "invalid"; readonly description: string }
  | { readonly kind: "insufficient-scope"; readonly description: string; readonly missing: readonly string[] }
  | { readonly kind: "keys-unavailable"; readonly description: string };

/** Checks one access token. Never rejects. */
type AccessTokenVerifier = (token: string) => Promise<AccessTokenCheck>;

/** How long a JWKS fetch may take before the token is refused (jose's `timeoutDuration`). */
const DEFAULT_JWKS_TIMEOUT_MS = 5_000;

/** The most bytes of a key set read from `jwksUri`: past it the download stops and the keys count as unavailable. */
const MAX_JWKS_BYTES = 1024 * 1024;
/** The most keys a key set from `jwksUri` may hold; one with more counts as unavailable, none of its keys used. */
const MAX_JWKS_KEYS = 100;

/** The `typ` an access token must have by default (RFC 9068), compared as `normalizeTyp` does. */
const DEFAULT_TYPES: readonly string[] = ["at+jwt"];

/** Seconds of clock difference with the authorization server tolerated on `exp` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** Asymmetric signature algorithms only: `none` and the HMAC ones (a secret shared with clients) are refused. */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
  "ML-DSA-44",
  "ML-DSA-65",
  "ML-DSA-87",
];

/** Whether `token` has the shape of a JWS compact serialization (three base64url parts, the last maybe empty). */
function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/**
 * A verifier for tokens of `oauth.issuer` meant for `settings.audience`, typed `at+jwt` (RFC 9068) unless
 * `oauth.allowedTypes` says otherwise. A key set from `jwksUri` is cached and fetched again as jose does (when
 * older than 10 minutes, or for an unknown key id at most every 30 s); one over `MAX_JWKS_BYTES` or
 * `MAX_JWKS_KEYS` is refused whole, and tokens are then refused as `keys-unavailable` until a later fetch
 * succeeds. Throws a `GatewayError` (`invalid-serve-auth`) when `oauth` is malformed: no issuer, neither or both of
 * `jwksUri` and `jwks`, a `jwksUri` over plain http to a host other than loopback, a key set jose cannot read, a
 * scope that cannot be sent in a header, `allowedTypes` neither `"any"` nor a list of names.
 */
export function createAccessTokenVerifier(
  oauth: ServeOAuthConfig,
  settings: { readonly audience: string; readonly jwksTimeoutMs?: number },
): AccessTokenVerifier {
  const keys = createKeyResolver(oauth, settings.jwksTimeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS);
  const required = checkScopes(oauth.scopes);
  const types = checkTypes(oauth.allowedTypes);
  return async (token) => {
    if (!looksLikeJwt(token)) return { kind: "invalid", description: "the token is not one this server knows" };
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(token, keys, {
        issuer: oauth.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        requiredClaims: ["exp"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      if (error instanceof KeysUnavailable) {
        const refused = error.cause instanceof KeySetRefused ? ` (${error.cause.message})` : "";
        return {
          kind: "keys-unavailable",
          description: `the authorization server's keys could not be fetched${refused}, so the token could not be checked`,
        };
      }
      return { kind: "invalid", description: describeVerifyFailure(error) };
    }
    if (types !== "any" && !(typeof header.typ === "string" && types.includes(normalizeTyp(header.typ)))) {
      return {
        kind: "invalid",
        description: `the token is not typed as an access token: its typ header must be ${types.join(" or ")} (RFC 9068)`,
      };
    }
    const subject = readSubject(payload);
    if (subject === undefined) return { kind: "invalid", description: "the access token names no subject" };
    const scopes = readScopes(payload);
    const missing = required.filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) {
      return {
        kind: "insufficient-scope",
        description: `the access token lacks the scope${missing.length === 1 ? "" : "s"} ${missing.join(" ")}`,
        missing,
      };
    }
    return { kind: "valid", subject, scopes };
  };
}

/** Thrown by the remote key resolver when the key set itself could not be had (as opposed to a token no key fits). */
class KeysUnavailable extends Error {}

/** A key set refused for its size; the message says which limit, for the refusal's description. */
class KeySetRefused extends Error {}

/** jose codes for a token that no key of a good key set verifies: the token's fault, not the key set's. */
const TOKEN_KEY_MISMATCH = new Set([
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
  "ERR_JOSE_NOT_SUPPORTED",
  "ERR_JOSE_ALG_NOT_ALLOWED",
]);

function createKeyResolver(oauth: ServeOAuthConfig, timeoutMs: number): JWTVerifyGetKey {
  if (typeof oauth !== "object" || oauth === null) throw invalid("serve.auth.oauth must be an object");
  if (typeof oauth.issuer !== "string" || oauth.issuer.trim() === "") {
    throw invalid("serve.auth.oauth.issuer must be the authorization server's issuer identifier (a URL)");
  }
  if (oauth.audience !== undefined && (typeof oauth.audience !== "string" || oauth.audience === "")) {
    throw invalid("serve.auth.oauth.audience must be a non-empty string when given");
  }
  if ((oauth.jwksUri === undefined) === (oauth.jwks === undefined)) {
    throw invalid("serve.auth.oauth needs exactly one of jwksUri (where the issuer publishes its keys) and jwks");
  }
  if (oauth.jwks !== undefined) {
    try {
      return createLocalJWKSet(oauth.jwks as Parameters<typeof createLocalJWKSet>[0]);
    } catch (cause) {
      throw invalid("serve.auth.oauth.jwks is not a JSON Web Key Set ({ keys: [...] })", cause);
    }
  }
  const url = parseJwksUri(oauth.jwksUri);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw invalid(`the JWKS fetch timeout must be a positive whole number of milliseconds, got ${String(timeoutMs)}`);
  }
  const remote = createRemoteJWKSet(url, { timeoutDuration: timeoutMs, [customFetch]: fetchBoundedKeySet });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (TOKEN_KEY_MISMATCH.has((error as { code?: unknown } | null)?.code as string)) throw error;
      throw new KeysUnavailable("the key set could not be fetched", { cause: error });
    }
  };
}

/**
 * jose's fetch of the key set, bounded: a body over `MAX_JWKS_BYTES` (said or read) is abandoned as soon as it
 * passes the limit, and one with more than `MAX_JWKS_KEYS` keys is refused; either throws `KeySetRefused`. The
 * timeout's signal, in `init`, bounds the body's reading too.
 */
async function fetchBoundedKeySet(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  // jose refuses any other status itself, without reading the body.
  if (response.status !== 200 || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    return response;
  }
  const said = Number(response.headers.get("content-length") ?? 0);
  if (said > MAX_JWKS_BYTES) {
    await response.body.cancel().catch(() => undefined);
    throw new KeySetRefused(`its key set is ${said} bytes, over the ${MAX_JWKS_BYTES} allowed`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_JWKS_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new KeySetRefused(`its key set is over the ${MAX_JWKS_BYTES} bytes allowed`);
    }
    chunks.push(read.value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let keys: unknown;
  try {
    keys = (JSON.parse(text) as { keys?: unknown } | null)?.keys;
  } catch {
    // Not JSON: jose says so when it parses the body.
  }
  if (Array.isArray(keys) && keys.length > MAX_JWKS_KEYS) {
    throw new KeySetRefused(`its key set has ${keys.length} keys, over the ${MAX_JWKS_KEYS} allowed`);
  }
  return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
}

function parseJwksUri(jwksUri: unknown): URL {
  let url: URL;
  try {
    url = new URL(String(jwksUri));
  } catch (cause) {
    throw invalid(`serve.auth.oauth.jwksUri must be a URL, got ${JSON.stringify(jwksUri)}`, cause);
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw invalid(
      `serve.auth.oauth.jwksUri must be an https URL (plain http only to a loopback host), got ${url.protocol}//${url.host}`,
    );
  }
  return url;
}

/** A scope token as RFC 6749 §3.3 defines it: printable ASCII except space, `"` and `\`. */
function checkScopes(scopes: unknown): string[] {
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes)) throw invalid("serve.auth.oauth.scopes must be a list of scope names");
  for (const scope of scopes) {
    if (typeof scope !== "string" || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) {
      throw invalid(`serve.auth.oauth.scopes has ${JSON.stringify(scope)}, which is not a scope name`);
    }
  }
  return [...new Set(scopes as string[])];
}

/** `allowedTypes` as names compared with `normalizeTyp`, or `"any"` (no check, a token without `typ` too). */
function checkTypes(allowed: unknown): readonly string[] | "any" {
  if (allowed === undefined) return DEFAULT_TYPES;
  if (allowed === "any") return "any";
  if (
    !Array.isArray(allowed) ||
    allowed.length === 0 ||
    allowed.some((type) => typeof type !== "string" || type.trim() === "")
  ) {
    throw invalid('serve.auth.oauth.allowedTypes must be "any" or a list of typ values such as ["at+jwt", "JWT"]');
  }
  return [...new Set((allowed as string[]).map(normalizeTyp))];
}

/** A media type as `typ` names it (RFC 7515 §4.1.9): case does not matter, and `application/` may be left out. */
function normalizeTyp(typ: string): string {
  const lower = typ.trim().toLowerCase();
  return lower.startsWith("application/") ? lower.slice("application/".length) : lower;
}

function readSubject(payload: JWTPayload): string | undefined {
  if (typeof payload.sub === "string" && payload.sub !== "") return payload.sub;
  const clientId = payload.client_id;
  return typeof clientId === "string" && clientId !== "" ? clientId : undefined;
}

/** The scopes granted: `scope` (space separated, RFC 9068) and `scp` (a list, or a space-separated string). */
function readScopes(payload: JWTPayload): string[] {
  const granted: string[] = [];
  for (const claim of [payload.scope, payload.scp]) {
    if (typeof claim === "string") granted.push(...claim.split(" "));
    else if (Array.isArray(claim)) granted.push(...claim.filter((scope): scope is string => typeof scope === "string"));
  }
  return [...new Set(granted.filter((scope) => scope !== ""))];
}

/** Why jose refused a token, in words for the caller; never quotes the token or its claims' values. */
function describeVerifyFailure(error: unknown): string {
  const { code, claim } = (error ?? {}) as { code?: unknown; claim?: unknown };
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "the access token has expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "nbf") return "the access token is not valid yet";
      if (claim === "iss") return "the access token was issued by another authorization server";
      if (claim === "aud") return "the access token is meant for another resource";
      if (claim === "exp") return "the access token has no expiry time";
      return typeof claim === "string" && /^[a-z_]{1,32}$/i.test(claim)
        ? `the access token's ${claim} claim is not valid`
        : "the access token's claims are not valid";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "the access token's signature does not verify";
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return "no key of the authorization server matches the access token";
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
      return "the access token's signature algorithm is not allowed";
    default:
      return "the access token is malformed";
  }
}

function invalid(message: string, cause?: unknown): GatewayError {
  return new GatewayError("invalid-serve-auth", message, cause === undefined ? undefined : { cause });
}
