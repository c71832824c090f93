// The MCP parts of toolwire.config.json as types only, free of the MCP SDK: the root entry's config types use them,
// and a consumer without the optional MCP SDK must be able to compile against the root's declaration files.

/** Which MCP protocol era a connection speaks: negotiated, 2025 only, or 2026-07-28 only. */
export type McpProtocolChoice = "auto" | "2025" | "2026-07-28";

/** The user logs in through a browser (authorization code with PKCE, a loopback redirect). */
export interface McpOAuthAuthConfig {
  readonly type: "oauth";
  /** Asked for when the server names no scope itself. */
  readonly scopes?: readonly string[];
  /** A pre-registered client; without it toolwire uses `clientMetadataUrl` or registers dynamically. */
  readonly clientId?: string;
  /** The environment variable holding the pre-registered client's secret (confidential clients only). */
  readonly clientSecretEnv?: string;
  /** An https URL of toolwire's client ID metadata document, for authorization servers that support them. */
  readonly clientMetadataUrl?: string;
  /** The loopback redirect port (for a client registered with a fixed redirect URI). Default: a free one, kept. */
  readonly redirectPort?: number;
  /** How long to wait for the login. Default 300 000 ms. */
  readonly authorizationTimeoutMs?: number;
}

/** A program with no user: the client credentials grant, with a secret or a private key (RFC 7523) from the environment. */
export interface McpClientCredentialsAuthConfig {
  readonly type: "client_credentials";
  readonly clientId: string;
  /** The environment variable with the client secret (`client_secret_basic`). */
  readonly clientSecretEnv?: string;
  /** The environment variable with a PEM private key (`private_key_jwt`); instead of `clientSecretEnv`. */
  readonly privateKeyEnv?: string;
  /** The key's JWS algorithm. Default `RS256`. */
  readonly algorithm?: string;
  readonly scopes?: readonly string[];
  /** The authorization server's issuer URL: the credentials are sent to no other. Recommended. */
  readonly issuer?: string;
}

/** A bearer token from the environment, sent as it is (no OAuth flow). */
export interface McpBearerAuthConfig {
  readonly type: "bearer";
  readonly tokenEnv: string;
}

/** `mcpServers[].auth`: how toolwire authorizes with an HTTP MCP server. Secrets are named by variable, never written. */
export type McpServerAuthConfig = McpOAuthAuthConfig | McpClientCredentialsAuthConfig | McpBearerAuthConfig;
