// Checks an OAuth access token (a JWT) the way a resource server must: signature, issuer, audience, time, scopes.
import { createLocalJWKSet, createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { ServeOAuthConfig } from "./authenticate.js";
import { GatewayError } from "./errors.js";

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
export type AccessTokenVerifier = (token: string) => Promise<AccessTokenCheck>;

/** How long a JWKS fetch may take before the token is refused (jose's `timeoutDuration`). */
export const DEFAULT_JWKS_TIMEOUT_MS = 5_000;

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
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/**
 * A verifier for tokens of `oauth.issuer` meant for `settings.audience`. Throws a `GatewayError`
 * (`invalid-serve-auth`) when `oauth` is malformed: no issuer, neither or both of `jwksUri` and `jwks`, a `jwksUri`
 * over plain http to a host other than loopback, a key set jose cannot read, a scope that cannot be sent in a header.
 */
export function createAccessTokenVerifier(
  oauth: ServeOAuthConfig,
  settings: { readonly audience: string; readonly jwksTimeoutMs?: number },
): AccessTokenVerifier {
  const keys = createKeyResolver(oauth, settings.jwksTimeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS);
  const required = checkScopes(oauth.scopes);
  return async (token) => {
    if (!looksLikeJwt(token)) return { kind: "invalid", description: "the token is not one this server knows" };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: oauth.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        requiredClaims: ["exp"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      if (error instanceof KeysUnavailable) {
        return {
          kind: "keys-unavailable",
          description: "the authorization server's keys could not be fetched, so the token could not be checked",
        };
      }
      return { kind: "invalid", description: describeVerifyFailure(error) };
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
  const remote = createRemoteJWKSet(url, { timeoutDuration: timeoutMs });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (TOKEN_KEY_MISMATCH.has((error as { code?: unknown } | null)?.code as string)) throw error;
      throw new KeysUnavailable("the key set could not be fetched", { cause: error });
    }
  };
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
