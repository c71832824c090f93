// The one definition of an MCP server's config, as types only and free of the MCP SDK: `connectMcpServer` takes it,
// toolwire.config.json's `mcpServers` holds it, and a consumer without the MCP SDK can compile against the root's
// types.
import type { ToolEffects, ToolTrust } from "../../core/types.js";
import type { SandboxOptions } from "../../sandbox/sandbox-options.js";

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
  /** DPoP-bound tokens when the authorization server offers DPoP (RFC 9449). Default true; false: Bearer only. */
  readonly dpop?: boolean;
}

/**
 * A program with no user: the client credentials grant, with a secret or a private key (RFC 7523) from the environment.
 */
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

/**
 * `mcpServers[].auth`: how toolwire authorizes with an HTTP MCP server. Secrets are named by variable, never written.
 */
export type McpServerAuthConfig = McpOAuthAuthConfig | McpClientCredentialsAuthConfig | McpBearerAuthConfig;

/**
 * What any MCP server entry may say besides how to reach the server. `connectMcpServer` takes these as the defaults
 * of its options (an option given there wins); `enabled` is read by the config file only.
 */
export interface McpServerOptions {
  /** The config file skips a server with `enabled: false`. Default true. */
  readonly enabled?: boolean;
  /** Server tool names (exact, or globs where `*` matches anything; case ignored) to bridge. Default: all. */
  readonly include?: readonly string[];
  /** Server tool names (same syntax) to leave out; wins over `include`. */
  readonly exclude?: readonly string[];
  /**
   * Each request (listing, each call), reset by progress. Default 60 000 ms; also bounds the handshake when shorter.
   */
  readonly timeoutMs?: number;
  /** Starting the server and the handshake. Default: `timeoutMs` when below 30 000 ms, else 30 000 ms. */
  readonly connectTimeoutMs?: number;
  /** Which protocol era to speak (see `McpConnectOptions.protocol`). Default `auto`. */
  readonly protocol?: McpProtocolChoice;
  /**
   * Overrides the server's tools' trust for flow rules (docs/security.md): `"trusted"` for a server whose answers you
   * control. Default: a tool's own, else `"untrusted"`.
   */
  readonly trust?: ToolTrust;
  /** Overrides the server's tools' effects. Default: `"none"` for tools annotated `readOnlyHint`, else `"external"`. */
  readonly effects?: ToolEffects;
}

/** A server started as a child process, spoken to over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerOptions {
  /** The server id: the `serverId` of its tools' owner and executor refs, and the prefix of their names. */
  readonly id: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a minimal environment (PATH, HOME, USER, LOGNAME, SHELL, TERM); the parent's is never passed whole. */
  readonly env?: Readonly<Record<string, string>>;
  /** The server's working folder; in the config file, relative to the config's folder. */
  readonly cwd?: string;
  /**
   * Opt-in (default off): start the server in bubblewrap (docs/sandbox.md), with `cwd` (or this process's
   * current folder; the config's folder for a config entry) as the one writable folder besides a private /tmp, no
   * network unless `network` says so.
   */
  readonly sandbox?: "off" | SandboxOptions;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerOptions {
  readonly id: string;
  /** An http or https URL (the config file takes a string). */
  readonly url: string | URL;
  readonly headers?: Readonly<Record<string, string>>;
  /** How to authorize: `{ type: "oauth", ... }` (a login), `client_credentials` or `bearer`; see docs/config.md. */
  readonly auth?: McpServerAuthConfig;
}

/** An MCP server: started over stdio (`command`) or reached over Streamable HTTP (`url`). */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;
