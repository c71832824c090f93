// Who is calling the gateway: a configured token or an OAuth access token in `Authorization: Bearer`, or a refusal.
import type { PolicyLayer } from "../../../core/types.js";
import { formatBearerChallenge } from "./bearer-challenge.js";
import { GatewayError } from "./errors.js";
import type { GatewayAuthOptions, ServeTokenConfig } from "./gateway-auth-options.js";
import { locateResourceMetadata } from "./locate-resource-metadata.js";
import { createServeTokenMatcher } from "./match-serve-token.js";
import { readBearerCredential } from "./read-bearer-credential.js";
import { type AccessTokenCheck, createAccessTokenVerifier } from "./verify-access-token.js";

/** Who made a request that was let in. */
export interface Principal {
  /** The token's principal, or the access token's `sub` (else its `client_id`). */
  readonly id: string;
  /**
   * How it was known: a configured token, an OAuth access token, or no credential at all (loopback without auth,
   * stdio).
   */
  readonly via: "token" | "oauth" | "none";
  /** The token's policy layers; `[]` when none (always for OAuth). */
  readonly policy: readonly PolicyLayer[];
  /** The scopes the access token grants; `[]` for a configured token. */
  readonly scopes: readonly string[];
}

/**
 * The verdict on one request. A refusal carries the status, the RFC 6750 error (`invalid_request` also when no
 * credential was sent, whose challenge then has no error attribute, per RFC 6750 §3.1), a message for a person that
 * never echoes the credential, and the response headers (`WWW-Authenticate`).
 */
export type AuthOutcome =
  | { readonly ok: true; readonly principal: Principal }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly error: "invalid_request" | "invalid_token" | "insufficient_scope";
      readonly message: string;
      readonly headers: Readonly<Record<string, string>>;
    };

export interface GatewayAuthenticator {
  readonly mode: "tokens" | "oauth" | "tokens+oauth";
  /**
   * The verdict on a request's `Authorization` header value. Never rejects, whatever the header holds. `origin`,
   * when given, is the origin the client addressed (`http://192.0.2.7:8080`), named in the challenge in place of
   * the resource URL's (for a server bound to every interface, whose own address no client can use).
   */
  authenticate(authorization: string | undefined, origin?: string): Promise<AuthOutcome>;
  /**
   * Where the RFC 9728 protected resource metadata is, named in every challenge: the well-known path inserted
   * before the resource's path (`http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp`).
   */
  readonly metadataUrl: string;
  /** The request paths to answer with `metadata()`: the one of `metadataUrl`, then the bare well-known path. */
  readonly metadataPaths: readonly string[];
  /**
   * The metadata document: `resource`, `authorization_servers` (with oauth), `bearer_methods_supported`,
   * `scopes_supported`; with `origin`, the resource is named at that origin (as in `authenticate`).
   */
  metadata(origin?: string): Record<string, unknown>;
}

/**
 * An authenticator for the resource at `context.resourceUrl` (the MCP endpoint's URL, the default audience).
 * A configured token is matched, in constant time, before any JWT parsing; then, with `oauth`, a JWT is checked.
 * Throws a `GatewayError`: `invalid-serve-auth` for neither tokens nor oauth, a malformed or duplicate token, an
 * unresolved `env:` token, an empty principal, a malformed oauth block; `invalid-serve-options` for a resource URL
 * that is not an http(s) URL. `context.jwksTimeoutMs` bounds a JWKS fetch (default 5000).
 */
export function createGatewayAuthenticator(
  options: GatewayAuthOptions,
  context: { readonly resourceUrl: string; readonly jwksTimeoutMs?: number },
): GatewayAuthenticator {
  const tokens = options.tokens ?? [];
  checkServeTokens(tokens);
  for (const [index, entry] of tokens.entries()) {
    if (entry.token.startsWith("env:")) {
      throw new GatewayError(
        "invalid-serve-auth",
        `serve.auth.tokens[${index}] (principal ${JSON.stringify(entry.principal)}) is still an env: reference; resolve it with resolveServeTokens first`,
      );
    }
  }
  const oauth = options.oauth;
  if (tokens.length === 0 && oauth === undefined) {
    throw new GatewayError("invalid-serve-auth", "serve.auth needs tokens, oauth or both");
  }
  const { metadataUrl, metadataPaths } = locateResourceMetadata(context.resourceUrl);
  const matchToken = createServeTokenMatcher(tokens);
  const verify =
    oauth === undefined
      ? undefined
      : createAccessTokenVerifier(oauth, {
          audience: oauth?.audience ?? context.resourceUrl,
          ...(context.jwksTimeoutMs === undefined ? {} : { jwksTimeoutMs: context.jwksTimeoutMs }),
        });
  const scope = oauth?.scopes?.join(" ");

  async function authenticate(authorization: string | undefined, origin: string | undefined): Promise<AuthOutcome> {
    const challenge = (status: 401 | 403, error: Refusal["error"], message: string, withError: boolean) =>
      refusal(
        status,
        error,
        message,
        formatBearerChallenge({
          ...(withError ? { error, description: message } : {}),
          ...(scope === undefined ? {} : { scope }),
          resourceMetadata: atOrigin(metadataUrl, origin),
        }),
      );
    const read = readBearerCredential(authorization);
    if (read.kind === "none") {
      const message =
        read.reason === "absent"
          ? "this server needs a credential: send Authorization: Bearer <token>"
          : "this server takes only Bearer credentials: send Authorization: Bearer <token>";
      return challenge(401, "invalid_request", message, false);
    }
    if (read.kind === "malformed") return challenge(401, "invalid_request", read.description, true);
    const matched = matchToken(read.credential);
    if (matched !== undefined) {
      return {
        ok: true,
        principal: { id: matched.principal, via: "token", policy: matched.policy ?? [], scopes: [] },
      };
    }
    if (verify === undefined) return challenge(401, "invalid_token", "the token is not one this server knows", true);
    const check: AccessTokenCheck = await verify(read.credential);
    switch (check.kind) {
      case "valid":
        return { ok: true, principal: { id: check.subject, via: "oauth", policy: [], scopes: check.scopes } };
      case "insufficient-scope":
        return challenge(403, "insufficient_scope", check.description, true);
      default:
        return challenge(401, "invalid_token", check.description, true);
    }
  }

  return {
    mode: tokens.length === 0 ? "oauth" : oauth === undefined ? "tokens" : "tokens+oauth",
    metadataUrl,
    metadataPaths,
    async authenticate(authorization, origin) {
      try {
        return await authenticate(authorization, origin);
      } catch {
        // Not expected: every check above returns its verdict. A refusal is the safe answer to a surprise.
        const description = "the credential could not be checked";
        return refusal(
          401,
          "invalid_token",
          description,
          formatBearerChallenge({
            error: "invalid_token",
            description,
            resourceMetadata: atOrigin(metadataUrl, origin),
          }),
        );
      }
    },
    metadata: (origin) => ({
      resource: atOrigin(context.resourceUrl, origin),
      ...(oauth === undefined ? {} : { authorization_servers: [oauth.issuer] }),
      bearer_methods_supported: ["header"],
      ...(oauth?.scopes === undefined || oauth.scopes.length === 0 ? {} : { scopes_supported: [...oauth.scopes] }),
    }),
  };
}

/**
 * `tokens` with each `env:NAME` token replaced by the variable's value in `env`. Throws a `GatewayError`:
 * `serve-token-unset` when a named variable is unset or empty (the message names the variable and the principal,
 * never a value); `invalid-serve-auth` for an empty principal, an empty variable name, a token that cannot be sent
 * in a header (empty, spaces, non-ASCII), or two entries with the same token.
 */
export function resolveServeTokens(tokens: readonly ServeTokenConfig[], env: NodeJS.ProcessEnv): ServeTokenConfig[] {
  if (!Array.isArray(tokens)) throw new GatewayError("invalid-serve-auth", "serve.auth.tokens must be a list");
  const resolved = tokens.map((entry, index) => {
    checkPrincipal(entry, index);
    if (typeof entry.token !== "string" || !entry.token.startsWith("env:")) return entry;
    const name = entry.token.slice("env:".length);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new GatewayError(
        "invalid-serve-auth",
        `serve.auth.tokens[${index}] (principal ${JSON.stringify(entry.principal)}) names ${JSON.stringify(name)}, which is not an environment variable name`,
      );
    }
    const value = env[name];
    if (value === undefined || value === "") {
      throw new GatewayError(
        "serve-token-unset",
        `serve.auth.tokens[${index}] (principal ${JSON.stringify(entry.principal)}) reads its token from the environment variable ${name}, which is ${value === undefined ? "unset" : "empty"}`,
      );
    }
    return { ...entry, token: value };
  });
  checkServeTokens(resolved);
  return resolved;
}

type Refusal = Extract<AuthOutcome, { ok: false }>;

/** `url` with its origin replaced by `origin`, when one is given. */
function atOrigin(url: string, origin: string | undefined): string {
  if (origin === undefined) return url;
  const { pathname, search } = new URL(url);
  return `${origin}${pathname}${search}`;
}

function refusal(status: 401 | 403, error: Refusal["error"], description: string, challenge: string): Refusal {
  const prefix = status === 401 ? "Unauthorized" : "Forbidden";
  return { ok: false, status, error, message: `${prefix}: ${description}`, headers: { "WWW-Authenticate": challenge } };
}

/** The contract of a token list: principals and tokens present, tokens sendable in a header, no token twice. */
function checkServeTokens(tokens: readonly ServeTokenConfig[]): void {
  if (!Array.isArray(tokens)) throw new GatewayError("invalid-serve-auth", "serve.auth.tokens must be a list");
  const seen = new Map<string, { principal: string; index: number }>();
  for (const [index, entry] of tokens.entries()) {
    checkPrincipal(entry, index);
    const where = `serve.auth.tokens[${index}] (principal ${JSON.stringify(entry.principal)})`;
    if (typeof entry.token !== "string" || entry.token === "") {
      throw new GatewayError("invalid-serve-auth", `${where} has no token`);
    }
    if (!/^[\x21-\x7e]+$/.test(entry.token)) {
      throw new GatewayError(
        "invalid-serve-auth",
        `${where} has a token with spaces, control or non-ASCII characters, which cannot be sent as a Bearer token`,
      );
    }
    if (entry.policy !== undefined && !Array.isArray(entry.policy)) {
      throw new GatewayError("invalid-serve-auth", `${where} has a policy that is not a list of policy layers`);
    }
    const earlier = seen.get(entry.token);
    if (earlier !== undefined) {
      throw new GatewayError(
        "invalid-serve-auth",
        `serve.auth.tokens[${earlier.index}] (principal ${JSON.stringify(earlier.principal)}) and ${where} have the same token; each entry needs its own`,
      );
    }
    seen.set(entry.token, { principal: entry.principal, index });
  }
}

function checkPrincipal(entry: ServeTokenConfig, index: number): void {
  if (typeof entry !== "object" || entry === null) {
    throw new GatewayError("invalid-serve-auth", `serve.auth.tokens[${index}] must be an object { token, principal }`);
  }
  if (typeof entry.principal !== "string" || entry.principal.trim() === "") {
    throw new GatewayError("invalid-serve-auth", `serve.auth.tokens[${index}] needs a non-empty principal`);
  }
}
