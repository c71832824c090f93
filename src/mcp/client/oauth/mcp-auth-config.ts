// The `auth` of an HTTP MCP server config as data, its validation, and the auth provider it describes.
import {
  type AuthProvider,
  ClientCredentialsProvider,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
} from "@modelcontextprotocol/client";
import type { McpServerAuthConfig } from "../mcp-config-types.js";
import { createMcpOAuthProvider, type LoopbackAuthorization } from "./create-mcp-oauth-provider.js";
import { McpOAuthError } from "./oauth-error.js";

export type {
  McpBearerAuthConfig,
  McpClientCredentialsAuthConfig,
  McpOAuthAuthConfig,
  McpServerAuthConfig,
} from "../mcp-config-types.js";

/** What `createMcpAuthProvider` takes besides the config. */
export interface CreateMcpAuthProviderOptions {
  /** Where `clientSecretEnv`, `privateKeyEnv` and `tokenEnv` are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Shows the authorization URL (default: printed on stderr). */
  readonly onAuthorizationUrl?: LoopbackAuthorization["onAuthorizationUrl"];
  /** The folder of the token files. Default `defaultOAuthDir()`. */
  readonly storeDir?: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Throws `McpOAuthError` `invalid-oauth-config` naming the field when `auth` is malformed (an unknown type, a
 * missing client id, both or neither secret source, a bad port or URL, a literal secret where a variable name
 * belongs); returns it otherwise.
 */
export function checkMcpAuthConfig(serverId: string, auth: unknown): McpServerAuthConfig {
  const fail = (message: string): never => {
    throw new McpOAuthError("invalid-oauth-config", `MCP server ${serverId}: auth${message}`);
  };
  if (typeof auth !== "object" || auth === null || Array.isArray(auth)) fail(" must be an object");
  const record = auth as Record<string, unknown>;
  const known: Record<string, readonly string[]> = {
    oauth: [
      "type",
      "scopes",
      "clientId",
      "clientSecretEnv",
      "clientMetadataUrl",
      "redirectPort",
      "authorizationTimeoutMs",
      "dpop",
    ],
    client_credentials: ["type", "clientId", "clientSecretEnv", "privateKeyEnv", "algorithm", "scopes", "issuer"],
    bearer: ["type", "tokenEnv"],
  };
  const type = record.type;
  const fields = typeof type === "string" ? known[type] : undefined;
  if (fields === undefined)
    fail(`.type must be "oauth", "client_credentials" or "bearer", got ${JSON.stringify(type)}`);
  for (const key of Object.keys(record)) {
    if (!(fields as readonly string[]).includes(key)) fail(`.${key} is not an option of type ${String(type)}`);
  }
  const optionalString = (key: string) => {
    const value = record[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) fail(`.${key} must be a non-empty string`);
  };
  const envName = (key: string) => {
    const value = record[key];
    if (value !== undefined && (typeof value !== "string" || !ENV_NAME.test(value))) {
      fail(`.${key} must name an environment variable (letters, digits and _), got ${JSON.stringify(value)}`);
    }
  };
  if (
    record.scopes !== undefined &&
    !(Array.isArray(record.scopes) && record.scopes.every((s) => typeof s === "string" && /^\S+$/.test(s)))
  ) {
    fail(".scopes must be a list of scope names without spaces");
  }
  for (const key of ["clientId", "clientMetadataUrl", "algorithm", "issuer"]) optionalString(key);
  for (const key of ["clientSecretEnv", "privateKeyEnv", "tokenEnv"]) envName(key);
  if (type === "oauth") {
    if (record.clientSecretEnv !== undefined && record.clientId === undefined) fail(".clientSecretEnv needs clientId");
    if (record.clientMetadataUrl !== undefined) {
      let url: URL | undefined;
      try {
        url = new URL(String(record.clientMetadataUrl));
      } catch {
        // reported below
      }
      if (url?.protocol !== "https:" || url.pathname === "/")
        fail(".clientMetadataUrl must be an https URL with a path");
    }
    const port = record.redirectPort;
    if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65_535)) {
      fail(`.redirectPort must be an integer from 1 to 65535, got ${JSON.stringify(port)}`);
    }
    if (record.dpop !== undefined && typeof record.dpop !== "boolean") {
      fail(`.dpop must be true or false, got ${JSON.stringify(record.dpop)}`);
    }
    const timeout = record.authorizationTimeoutMs;
    if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0 && timeout <= 2_147_483_647)) {
      fail(`.authorizationTimeoutMs must be a positive number of ms, got ${JSON.stringify(timeout)}`);
    }
  }
  if (type === "client_credentials") {
    if (typeof record.clientId !== "string" || record.clientId === "") fail(".clientId is required");
    if ((record.clientSecretEnv === undefined) === (record.privateKeyEnv === undefined)) {
      fail(" needs exactly one of clientSecretEnv or privateKeyEnv");
    }
  }
  if (type === "bearer" && record.tokenEnv === undefined) fail(".tokenEnv is required");
  return auth as McpServerAuthConfig;
}

/**
 * The auth provider an HTTP server config's `auth` describes: `oauth` gives `createMcpOAuthProvider` (tokens in a
 * file keyed by the URL), `client_credentials` the SDK's client credentials providers, `bearer` a fixed token. Reads
 * the named environment variables now; throws `McpOAuthError` `missing-client-secret` when one is unset or empty,
 * `invalid-oauth-config` when `auth` is malformed.
 */
export function createMcpAuthProvider(
  server: { readonly id: string; readonly url: string | URL; readonly auth: McpServerAuthConfig },
  options: CreateMcpAuthProviderOptions = {},
): AuthProvider | OAuthClientProvider {
  const auth = checkMcpAuthConfig(server.id, server.auth);
  const env = options.env ?? process.env;
  const secret = (name: string, what: string): string => {
    const value = env[name];
    if (value === undefined || value === "") {
      throw new McpOAuthError(
        "missing-client-secret",
        `MCP server ${server.id}: the environment variable ${name} (its ${what}) is not set`,
      );
    }
    return value;
  };
  const scope =
    auth.type !== "bearer" && auth.scopes !== undefined && auth.scopes.length > 0 ? auth.scopes.join(" ") : undefined;
  switch (auth.type) {
    case "oauth":
      return createMcpOAuthProvider({
        serverUrl: server.url,
        ...(auth.scopes === undefined ? {} : { scopes: auth.scopes }),
        ...(auth.clientId === undefined ? {} : { clientId: auth.clientId }),
        ...(auth.clientSecretEnv === undefined ? {} : { clientSecret: secret(auth.clientSecretEnv, "client secret") }),
        ...(auth.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: auth.clientMetadataUrl }),
        ...(options.storeDir === undefined ? {} : { storeDir: options.storeDir }),
        ...(auth.dpop === undefined ? {} : { dpop: auth.dpop }),
        authorization: {
          kind: "loopback",
          ...(auth.redirectPort === undefined ? {} : { port: auth.redirectPort }),
          ...(auth.authorizationTimeoutMs === undefined ? {} : { timeoutMs: auth.authorizationTimeoutMs }),
          ...(options.onAuthorizationUrl === undefined ? {} : { onAuthorizationUrl: options.onAuthorizationUrl }),
        },
      });
    case "client_credentials":
      return createMcpClientCredentialsProvider({
        clientId: auth.clientId,
        ...(auth.clientSecretEnv === undefined ? {} : { clientSecret: secret(auth.clientSecretEnv, "client secret") }),
        ...(auth.privateKeyEnv === undefined ? {} : { privateKey: secret(auth.privateKeyEnv, "private key") }),
        ...(auth.algorithm === undefined ? {} : { algorithm: auth.algorithm }),
        ...(scope === undefined ? {} : { scopes: auth.scopes }),
        ...(auth.issuer === undefined ? {} : { expectedIssuer: auth.issuer }),
      });
    case "bearer": {
      const token = secret(auth.tokenEnv, "bearer token");
      return { token: async () => token };
    }
  }
}

/** What `createMcpClientCredentialsProvider` takes: a client id and either a secret or a private key. */
export interface McpClientCredentialsOptions {
  readonly clientId: string;
  /** For `client_secret_basic`. */
  readonly clientSecret?: string;
  /** A PEM private key for `private_key_jwt` (RFC 7523), instead of a secret. */
  readonly privateKey?: string;
  /** The key's JWS algorithm (`RS256`, `ES256`, ...). Default `RS256`. */
  readonly algorithm?: string;
  readonly scopes?: readonly string[];
  /** The authorization server the credentials belong to: they are sent to no other. */
  readonly expectedIssuer?: string;
}

/**
 * The headless provider for programs with no user: the OAuth client credentials grant, authenticated with a secret
 * (`client_secret_basic`) or a signed JWT (`private_key_jwt`). Tokens live in memory and are fetched again when the
 * server refuses them. Throws `McpOAuthError` `invalid-oauth-config` unless exactly one of the secret and the key is
 * given.
 */
export function createMcpClientCredentialsProvider(options: McpClientCredentialsOptions): OAuthClientProvider {
  if ((options.clientSecret === undefined) === (options.privateKey === undefined)) {
    throw new McpOAuthError(
      "invalid-oauth-config",
      "Client credentials need exactly one of clientSecret or privateKey",
    );
  }
  const scope = options.scopes !== undefined && options.scopes.length > 0 ? options.scopes.join(" ") : undefined;
  const common = {
    clientId: options.clientId,
    clientName: "toolwire",
    ...(scope === undefined ? {} : { scope }),
    ...(options.expectedIssuer === undefined ? {} : { expectedIssuer: options.expectedIssuer }),
  };
  if (options.privateKey !== undefined) {
    return new PrivateKeyJwtProvider({
      ...common,
      privateKey: options.privateKey,
      algorithm: options.algorithm ?? "RS256",
    });
  }
  return new ClientCredentialsProvider({ ...common, clientSecret: options.clientSecret as string });
}
