// GatewayAuthOptions: who may use the HTTP gateway (the config's serve.auth), as static tokens or OAuth access tokens.
import type { PolicyLayer } from "../../../core/types.js";

/** One static credential: whoever sends `token` is `principal`, under `policy` (which only narrows the config's). */
export interface ServeTokenConfig {
  /** The secret itself, or `env:NAME` before `resolveServeTokens`. */
  readonly token: string;
  readonly principal: string;
  readonly policy?: readonly PolicyLayer[];
}

/** Access tokens of one authorization server, checked as JWTs against its key set. */
export interface ServeOAuthConfig {
  readonly issuer: string;
  /** Default: the server's resource URL (RFC 8707). */
  readonly audience?: string;
  /** Where the issuer publishes its keys (https; plain http only to a loopback host). */
  readonly jwksUri?: string;
  /** Or the key set itself. */
  readonly jwks?: { readonly keys: readonly object[] };
  /** Scopes a token must all have. */
  readonly scopes?: readonly string[];
  /**
   * The `typ` header values accepted (case-insensitive, `application/` optional). Default `["at+jwt"]`, as RFC 9068
   * asks; `"any"` checks no type (for an authorization server that types access tokens `JWT` or not at all).
   */
  readonly allowedTypes?: readonly string[] | "any";
}

/** Who may use the HTTP gateway: static bearer tokens, OAuth access tokens (JWTs), or both. */
export interface GatewayAuthOptions {
  readonly tokens?: readonly ServeTokenConfig[];
  readonly oauth?: ServeOAuthConfig;
}
